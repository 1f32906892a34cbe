/** The statistics feature's public face: what other features may use (docs/CONTRIBUTING.md). */
export { applyResponseToRollups } from './apply-response-to-rollups.js';
export { rebuildRollupsOfForm } from './rebuild-rollups.js';
export { rollupResponseCountSql } from './rollup-response-count.js';
