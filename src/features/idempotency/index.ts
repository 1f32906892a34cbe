/** The idempotency feature's public face: what other features may use (docs/CONTRIBUTING.md). */
export {
  claimIdempotencyKey,
  claimIdempotencyKeys,
  IDEMPOTENCY_LEASE_MS,
  IDEMPOTENCY_TTL_MS,
  type ClaimOutcome,
  type IdempotencyClaim,
  type IdempotencyKeyRef,
  type StoredAnswer,
} from './claim-idempotency-key.js';
export { recordIdempotentAnswers, releaseIdempotencyKey, type IdempotentAnswer } from './record-idempotent-answer.js';
