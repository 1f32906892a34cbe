/** The keys feature's public face: what other features may use (docs/CONTRIBUTING.md). */
export { createKey } from './create-key.js';
export { SCOPES } from './scopes.js';
