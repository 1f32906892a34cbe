/**
 * The fetch every call goes through: each POST gets an Idempotency-Key (the caller's, or a new
 * UUID) that all of its attempts share, so a retry after a lost answer replays the first answer
 * instead of doing the work twice. Retried: 429 after its retry-after; 409 IDEMPOTENCY_IN_PROGRESS,
 * 5xx and network errors with backoff; a timed-out attempt after at least 60 seconds (the first may
 * still be running on the server: repeating at once would only meet it).
 */
export interface RetryOptions {
  /** Attempts after the first; default 3. */
  maxRetries?: number;
  /** Per attempt; default 30,000 ms. */
  timeoutMs?: number;
  /** How the client waits between attempts (tests pass one that records or moves a clock). */
  sleep?: (ms: number) => Promise<void>;
  fetch?: typeof fetch;
}

export const TIMEOUT_PAUSE_MS = 60_000;
const BACKOFF_MS = [1_000, 4_000, 15_000, 30_000];

class AttemptTimeout extends Error {}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function retryDelay(response: Response, attempt: number): Promise<number | null> {
  if (response.status === 429) return Math.max(0, Number(response.headers.get('retry-after') ?? '1')) * 1000;
  if (response.status >= 500) return BACKOFF_MS[Math.min(attempt, BACKOFF_MS.length - 1)];
  if (response.status === 409) {
    const body = (await response.clone().json().catch(() => null)) as { error?: { code?: string } } | null;
    if (body?.error?.code === 'IDEMPOTENCY_IN_PROGRESS') return BACKOFF_MS[Math.min(attempt, BACKOFF_MS.length - 1)];
  }
  return null;
}

export function retryingFetch(options: RetryOptions = {}): (input: Request) => Promise<Response> {
  const { maxRetries = 3, timeoutMs = 30_000, sleep = defaultSleep, fetch: send = globalThis.fetch } = options;
  return async (input: Request) => {
    const request = input.method === 'POST' && !input.headers.has('idempotency-key') ? withKey(input, crypto.randomUUID()) : input;
    for (let attempt = 0; ; attempt += 1) {
      const last = attempt >= maxRetries;
      let wait: number | null;
      try {
        const response = await attemptOnce(send, request.clone(), timeoutMs);
        wait = last ? null : await retryDelay(response, attempt);
        if (wait === null) return response;
      } catch (err) {
        if (last) throw err;
        wait = err instanceof AttemptTimeout ? TIMEOUT_PAUSE_MS : BACKOFF_MS[Math.min(attempt, BACKOFF_MS.length - 1)];
      }
      await sleep(wait);
    }
  };
}

function withKey(request: Request, key: string): Request {
  const headers = new Headers(request.headers);
  headers.set('idempotency-key', key);
  return new Request(request, { headers });
}

async function attemptOnce(send: typeof fetch, request: Request, timeoutMs: number): Promise<Response> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new AttemptTimeout(`no answer in ${timeoutMs} ms`)), timeoutMs);
  try {
    return await send(new Request(request, { signal: controller.signal }));
  } catch (err) {
    throw controller.signal.aborted ? new AttemptTimeout(`no answer in ${timeoutMs} ms`) : err;
  } finally {
    clearTimeout(timer);
  }
}
