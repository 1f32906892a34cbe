import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import type { Clock } from '../src/lib/clock.js';
import { goalReachedData, type EventDataByType, type EventType } from '../src/features/events/catalog.js';
import { emitEvent } from '../src/features/events/emit-event.js';
import { createSubscription } from '../src/features/webhooks/create-subscription.js';
import { startDeliveryLoop, type DeliveryLoop, type DeliveryLoopOptions } from '../src/features/webhooks/deliver-loop.js';
import { startTestApp, type TestApp } from './harness.js';

/** A request as a receiver got it: the raw body bytes are what the signature covers. */
export interface ReceivedWebhook {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** Date.now() when the whole body had arrived. */
  receivedAt: number;
}

export interface Answer {
  status: number;
  body?: string;
  headers?: Record<string, string>;
  /** The answer waits for this first (a slow or hanging receiver). */
  after?: Promise<unknown>;
}

export type Responder = (request: ReceivedWebhook) => Answer | Promise<Answer>;

export interface Receiver {
  url(path?: string): string;
  received: ReceivedWebhook[];
  /** How each request is answered; 200 by default. Replace it at any time. */
  respond: Responder;
  /** Sockets the receiver saw closed (a client dropping the connection). */
  closedSockets: number;
  close(): Promise<void>;
}

/** A real HTTP receiver on 127.0.0.1 recording every request. */
export async function startReceiver(respond: Responder = () => ({ status: 200 })): Promise<Receiver> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const request = { path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), receivedAt: Date.now() };
      receiver.received.push(request);
      const answer = await receiver.respond(request);
      await answer.after;
      if (res.destroyed) return;
      res.writeHead(answer.status, answer.headers).end(answer.body ?? '');
    });
  });
  const receiver: Receiver = {
    url: (path = '/hook') => `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`,
    received: [],
    respond,
    closedSockets: 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  server.on('connection', (socket) => socket.on('close', () => receiver.closedSockets++));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return receiver;
}

/**
 * Verifies a received request with the reference Standard Webhooks library, as a receiver whose
 * clock agrees with the sender's would (the library checks the timestamp against Date.now(), and
 * tests run the sender on a manual clock).
 */
export function verifyWebhook(secret: string, request: ReceivedWebhook, clock: Clock): unknown {
  const realNow = Date.now;
  Date.now = () => clock.now().getTime();
  try {
    return new Webhook(secret).verify(request.body, request.headers as Record<string, string>);
  } finally {
    Date.now = realNow;
  }
}

/** True when the reference library accepts the request with this secret. */
export function verifiesWith(secret: string, request: ReceivedWebhook, clock: Clock): boolean {
  try {
    verifyWebhook(secret, request, clock);
    return true;
  } catch {
    return false;
  }
}

/** A subscription of the company to `url` (all types unless given); returns it with its secret. */
export async function subscribe(t: TestApp, companyId: string, url: string, types?: string[]) {
  return createSubscription(t.ctx.db, t.ctx, { companyId, url, types });
}

/** Emits an event in its own committed transaction. */
export async function emit<T extends EventType>(t: TestApp, companyId: string, type: T, data: EventDataByType[T]) {
  return t.ctx.db.transaction((tx) => emitEvent(tx, t.ctx, { companyId, type, data }));
}

export const goalData = (responseCount = 10) => goalReachedData({ formId: 'f-1', formName: 'Exit survey', responseCount, goal: 10, alertRuleId: null });

/** A delivery loop driven by the test (no LISTEN, no poll): runOnce/drain against the manual clock. */
export function manualLoop(t: TestApp, options: DeliveryLoopOptions = {}) {
  return startDeliveryLoop(t.ctx, { listen: false, pollIntervalMs: null, random: () => 0, ...options });
}

export async function deliveryRows(t: TestApp, companyId: string) {
  const { rows } = await t.ctx.pool.query(
    'SELECT id, subscription_id, event_id, status, attempts, next_attempt_at, lease_until FROM webhook_deliveries WHERE company_id = $1 ORDER BY id',
    [companyId],
  );
  return rows;
}

export interface WebhookTestbed {
  t: TestApp;
  receiver: Receiver;
  loop: DeliveryLoop;
}

/**
 * Registers the hooks of a webhook test file: the app, one receiver (answering 200 unless a test
 * says otherwise, its log cleared before each test) and a manual delivery loop. After each test
 * every subscription is disabled, so retries it left pending never reach the next test.
 */
export function webhookTestbed(options: DeliveryLoopOptions = {}): WebhookTestbed {
  const bed = {} as WebhookTestbed;
  beforeAll(async () => {
    bed.t = await startTestApp();
    bed.receiver = await startReceiver();
    bed.loop = await manualLoop(bed.t, options);
  });
  afterAll(async () => {
    await bed.loop?.stop();
    await bed.receiver?.close();
    await bed.t?.close();
  });
  beforeEach(() => {
    bed.receiver.received = [];
    bed.receiver.respond = () => ({ status: 200 });
  });
  afterEach(async () => {
    await bed.t.ctx.pool.query('UPDATE webhook_subscriptions SET enabled = false');
  });
  return bed;
}
