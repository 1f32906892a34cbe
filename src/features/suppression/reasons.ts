/** Why an address is suppressed; a file of its own so the CLI lists the reasons without loading the suppression services. */
export const SUPPRESSION_REASONS = ['bounced', 'complained', 'unsubscribed', 'manual'] as const;
export type SuppressionReason = (typeof SUPPRESSION_REASONS)[number];
