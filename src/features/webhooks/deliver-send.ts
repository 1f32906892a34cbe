import { performance } from 'node:perf_hooks';
import type { Readable } from 'node:stream';
import { request, type Dispatcher } from 'undici';
import type { ClaimedDelivery } from './deliver-claim.js';
import type { AttemptOutcome } from './retry-policy.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { webhookHeaders } from '../../lib/webhook-signature.js';
import { targetRefusal } from '../../platform/outbound/index.js';

/** How much of a receiver's answer is read and kept; beyond it the connection is dropped. */
export const RESPONSE_BODY_LIMIT = 4096;

export interface SendDeps {
  dispatcher: Dispatcher;
  box: SecretBox;
  /** Whole attempt: connect, send, answer and the capped body read. */
  timeoutMs: number;
}

export interface AttemptResult {
  startedAt: Date;
  durationMs: number;
  /** delivered: a 2xx answer; forbidden: refused by the SSRF guard (never retried); otherwise the failure kind the retry policy reads. */
  outcome: 'delivered' | 'forbidden' | AttemptOutcome;
  statusCode: number | null;
  retryAfter: string | null;
  error: string | null;
  responseBody: string | null;
}

/** The current secret, plus the previous one while a rotation's overlap lasts: each signs. */
export function signingSecrets(delivery: ClaimedDelivery, box: SecretBox, now: Date): string[] {
  const secrets = [box.open(delivery.secretSealed, delivery.subscriptionId)];
  const { previousSecretSealed, previousSecretExpiresAt } = delivery;
  if (previousSecretSealed && previousSecretExpiresAt && previousSecretExpiresAt > now) {
    secrets.push(box.open(previousSecretSealed, delivery.subscriptionId));
  }
  return secrets;
}

/**
 * POSTs the envelope once. The body is serialised once and those exact bytes are signed and sent;
 * webhook-id is the event id on every attempt. Redirects are not followed (undici's request
 * follows none), so a 3xx is an answer like any other non-2xx: a failure.
 */
export async function sendDelivery(delivery: ClaimedDelivery, now: Date, deps: SendDeps): Promise<AttemptResult> {
  const body = JSON.stringify(delivery.event);
  const headers = webhookHeaders(delivery.event.id, body, signingSecrets(delivery, deps.box, now), now);
  const started = performance.now();
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), deps.timeoutMs);
  const result = (fields: Omit<AttemptResult, 'startedAt' | 'durationMs'>): AttemptResult => ({
    startedAt: now,
    durationMs: Math.round(performance.now() - started),
    ...fields,
  });
  try {
    const response = await request(delivery.url, { method: 'POST', headers: { ...headers }, body, dispatcher: deps.dispatcher, signal: timeout.signal });
    const read = await readCapped(response.body);
    const delivered = response.statusCode >= 200 && response.statusCode < 300;
    return result({
      outcome: delivered ? 'delivered' : 'status',
      statusCode: response.statusCode,
      retryAfter: headerValue(response.headers['retry-after']),
      error: read.error,
      responseBody: read.text,
    });
  } catch (err) {
    const refusal = targetRefusal(err);
    if (refusal) return result({ outcome: 'forbidden', statusCode: null, retryAfter: null, error: refusal.message, responseBody: null });
    const outcome = timeout.signal.aborted ? 'timeout' : 'error';
    const error = outcome === 'timeout' ? `timeout: no complete answer within ${deps.timeoutMs} ms` : describeError(err);
    return result({ outcome, statusCode: null, retryAfter: null, error, responseBody: null });
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Reads at most RESPONSE_BODY_LIMIT bytes. Leaving the loop early destroys the body, and with an
 * unfinished answer undici destroys the socket: a receiver cannot make us read (or hold) more.
 * The status line already decided the outcome, so a failure while reading is only noted.
 */
async function readCapped(body: Readable): Promise<{ text: string; error: string | null }> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      size += chunk.length;
      if (size > RESPONSE_BODY_LIMIT) break;
    }
  } catch (err) {
    return { text: bodyText(chunks), error: `reading the answer: ${describeError(err)}` };
  }
  return { text: bodyText(chunks), error: null };
}

/** Postgres text cannot hold NUL; a multi-byte character cut at the limit becomes U+FFFD. */
function bodyText(chunks: Buffer[]): string {
  return Buffer.concat(chunks).subarray(0, RESPONSE_BODY_LIMIT).toString('utf8').replaceAll('\u0000', '');
}

function headerValue(value: string | string[] | undefined): string | null {
  return (Array.isArray(value) ? value[0] : value) ?? null;
}

function describeError(err: unknown): string {
  const e = err as { message?: string; code?: string; name?: string };
  return e.message || e.code || e.name || String(err);
}
