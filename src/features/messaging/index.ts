/** The messaging feature's public face: what other features may use (docs/CONTRIBUTING.md). */
export { DEFAULT_GATEWAY_TEXT, findWhatsappChannel } from './channel-settings.js';
export { formEmailTemplate } from './email-template.js';
export { MESSAGES_CHANNEL } from './message-kind.js';
export { seedDemoMail } from './seed-demo-mail.js';
export { sendMail, type SendMailDeps } from './send-mail.js';
