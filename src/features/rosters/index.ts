/** The rosters feature's public face: what other features may use (docs/CONTRIBUTING.md). */
export { seedDemoRoster } from './seed-demo-roster.js';
