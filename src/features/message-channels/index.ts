/**
 * What an invite's message is made of, below both the invites that queue messages and the messaging
 * kinds that send them: the company's WhatsApp channel, the form's e-mail template, and the channel
 * that wakes the message loops (docs/CONTRIBUTING.md, "How a feature is laid out").
 */
export {
  DEFAULT_GATEWAY_TEXT, WHATSAPP_PROVIDERS, findWhatsappChannel, whatsappChannelView,
  type WhatsappChannel, type WhatsappChannelView, type WhatsappProvider, type WhatsappSettings,
} from './channel-settings.js';
export {
  emailTemplate, formEmailTemplate, formReminderTemplate, reminderTemplate, type EmailTemplate, type MessagePurpose,
} from './email-template.js';
export { MESSAGES_CHANNEL } from './queue-channel.js';
