/** The statistics feature's public face: what other features may use (docs/CONTRIBUTING.md). */
export { seedDemoRollups } from './seed-demo-rollups.js';
