/** The suppression feature's public face: what other features may use (docs/CONTRIBUTING.md). */
export { type SuppressionReason } from './reasons.js';
export { suppress } from './suppressions.js';
