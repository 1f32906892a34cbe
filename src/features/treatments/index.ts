/** The treatments feature's public face: what other features may use (docs/CONTRIBUTING.md). */
export { seedDemoTreatments } from './seed-demo-treatments.js';
export { loadWorkingCalendar, type WorkingCalendar } from './working-days.js';
