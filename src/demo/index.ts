/** The demo feature's public face: what other features may use (docs/CONTRIBUTING.md). */
export { type DemoSeeder } from './seed-demo.js';
