/** The entities feature's public face: what other features may use (docs/CONTRIBUTING.md). */
export { importEntityFile } from './import-entities.js';
export { listEntities } from './list-entities.js';
export { nameEntities } from './name-entities.js';
export { type EntityKind } from './parse-entities.js';
export { resolveEntityRefs, type EntityRef, type ResolvedEntities } from './resolve-entity.js';
