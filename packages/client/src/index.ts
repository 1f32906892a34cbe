/** @quorum/client: the typed client of the Quorum public API (docs/client.md). */
export { createQuorumClient, type Enrollment, type EnrollmentFilters, type Invite, type InviteFilters, type QuorumClient, type QuorumClientOptions, type ResponseFilters, type ResponseRecord, type WriteOptions } from './client.js';
export { QuorumError } from './errors.js';
export { TIMEOUT_PAUSE_MS, type RetryOptions } from './retrying-fetch.js';
export { verifyWebhook, WebhookVerificationError, type WebhookEvent } from './webhooks.js';
export type { components, operations, paths, webhooks } from './schema.js';
