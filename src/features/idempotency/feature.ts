import type { Feature } from '../feature.js';

/** Idempotency keys of /v1 POSTs: the platform's hook (src/platform/app/idempotency.ts) claims and records them; a sweep prunes them. */
export const idempotencyFeature: Feature = { name: 'idempotency', tasks: async () => [(await import('./prune-idempotency-keys.job.js')).pruneIdempotencyKeys] };
