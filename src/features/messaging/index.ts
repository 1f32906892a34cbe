/** The messaging feature's public face: what other features may use (docs/CONTRIBUTING.md). */
export { seedDemoMail } from './seed-demo-mail.js';
export { sendMail, type SendMailDeps } from './send-mail.js';
