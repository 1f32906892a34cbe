/**
 * Response headers of the contract, declared on every documented answer so that generated
 * clients know them: x-request-id everywhere, the rate-limit trio on every authenticated
 * operation, retry-after on 429 and 500 (a lost database connection says when to repeat). Route schemas cannot declare headers, so the finished document is completed.
 */
const HEADERS = {
  XRequestId: { name: 'x-request-id', description: "The request's id: the client's x-request-id when it is a safe token, otherwise generated.", schema: { type: 'string' } },
  RateLimitLimit: { name: 'ratelimit-limit', description: 'Requests allowed to this key per rolling minute.', schema: { type: 'integer' } },
  RateLimitRemaining: { name: 'ratelimit-remaining', description: 'Requests left in the current rolling minute.', schema: { type: 'integer' } },
  RateLimitReset: { name: 'ratelimit-reset', description: 'Seconds until the oldest counted request leaves the minute.', schema: { type: 'integer' } },
  RetryAfter: { name: 'retry-after', description: 'Whole seconds to wait before repeating the request.', schema: { type: 'integer' } },
  IdempotentReplayed: {
    name: 'idempotent-replayed',
    description: 'true on the stored answer of an earlier request with the same Idempotency-Key (the request did nothing this time).',
    schema: { type: 'string', enum: ['true'] },
  },
} as const;

type HeaderName = keyof typeof HEADERS;

/** Operations of the respondent API: no key, rate limited per client address. */
export const RESPONDENT_PREFIX = /^\/r\/v1(?=\/|$)/;

interface Operation {
  security?: Array<Record<string, unknown>>;
  parameters?: Array<{ in?: string; name?: string }>;
  responses?: Record<string, { headers?: Record<string, unknown> }>;
}

interface Document {
  components?: { headers?: Record<string, unknown> };
  paths?: Record<string, Record<string, Operation>>;
}

export function withResponseHeaders<T extends object>(document: T): T {
  const doc = document as Document;
  doc.components = {
    ...doc.components,
    headers: Object.fromEntries(Object.entries(HEADERS).map(([id, { name: _name, ...header }]) => [id, header])),
  };
  const ref = (id: HeaderName) => [HEADERS[id].name, { $ref: `#/components/headers/${id}` }];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const operation of Object.values(item)) {
      // The respondent API counts per client address instead of per key, with the same headers.
      const authenticated = (operation.security ?? []).length > 0 || RESPONDENT_PREFIX.test(path);
      // Any stored answer (a success or a refusal) may come back as a replay; a refusal of the key itself never is.
      const idempotent = (operation.parameters ?? []).some((p) => p.in === 'header' && p.name === 'idempotency-key');
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        const ids: HeaderName[] = ['XRequestId'];
        if (authenticated) ids.push('RateLimitLimit', 'RateLimitRemaining', 'RateLimitReset');
        if (status === '429' || status === '500') ids.push('RetryAfter');
        if (idempotent && !['422', '429', '500'].includes(status)) ids.push('IdempotentReplayed');
        response.headers = { ...response.headers, ...Object.fromEntries(ids.map(ref)) };
      }
    }
  }
  return document;
}
