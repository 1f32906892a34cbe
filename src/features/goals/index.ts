/** The goals feature's public face: what other features may use (docs/CONTRIBUTING.md). */
export { seedDemoGoals } from './seed-demo-goals.js';
