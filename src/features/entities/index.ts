/** The entities feature's public face: what other features may use (docs/CONTRIBUTING.md). */
export { importEntities, importEntityFile, type EntityImportResult } from './import-entities.js';
export { listEntities } from './list-entities.js';
export { nameEntities } from './name-entities.js';
export { validateEntityRows, type EntityInput, type EntityKind } from './parse-entities.js';
export { resolveEntityRefs, type EntityRef, type ResolvedEntities } from './resolve-entity.js';
