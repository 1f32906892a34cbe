/** Words of the channel settings that the CLI's options name; a file of their own so the CLI can list them without loading drizzle. */
export const WHATSAPP_PROVIDERS = ['cloud-api', 'gateway'] as const;
export type WhatsappProvider = (typeof WHATSAPP_PROVIDERS)[number];
