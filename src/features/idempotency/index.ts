/** The idempotency feature's public face: what other features may use (docs/CONTRIBUTING.md). */
export { claimIdempotencyKey, IDEMPOTENCY_LEASE_MS, IDEMPOTENCY_TTL_MS, type ClaimOutcome, type IdempotencyKeyRef, type StoredAnswer } from './claim-idempotency-key.js';
export { recordIdempotentAnswer, releaseIdempotencyKey } from './record-idempotent-answer.js';
