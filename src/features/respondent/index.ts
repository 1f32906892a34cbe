/** The respondent feature's public face: what other features may use (docs/CONTRIBUTING.md). */
export { demoLinks, type DemoLinks } from './pages/demo-links.js';
