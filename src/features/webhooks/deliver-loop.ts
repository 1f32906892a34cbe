import type { WorkerContext } from '../../platform/jobs/define-task.js';
import type { OutboundLane } from '../feature.js';
import type { LogFn, OutboundKind } from '../../platform/outbound/index.js';
import { startOutboundLoop, type OutboundLoop, type OutboundLoopOptions } from '../../platform/outbound/index.js';
import { outboundDispatcher } from '../../platform/outbound/index.js';
import { deliveryClaimer, type ClaimedDelivery } from './deliver-claim.js';
import { recordAttempts } from './deliver-record.js';
import { sendDelivery, type AttemptResult } from './deliver-send.js';
import { DELIVERIES_CHANNEL } from './queue-deliveries.js';
import { secretBox } from '../../lib/secret-box.js';

export interface DeliveryLoopOptions extends Omit<OutboundLoopOptions, 'perTarget'> {
  /** Requests under way per subscription in this process (SUBSCRIPTION_CONCURRENCY): a slow endpoint only slows itself. */
  perSubscription?: number;
  /** Whole attempt timeout. */
  timeoutMs?: number;
  /** Jitter source of the retry schedule. */
  random?: () => number;
}

export type DeliveryLoop = OutboundLoop;

/**
 * Requests under way per subscription in one worker, by default. At 4, a subscription's ceiling
 * was 4 ÷ round-trip time: on a busy machine (10 ms round trips) 400/s, and a steady stream at that
 * rate queued for seconds (bench/README.md, webhooks). Deliveries carry no ordering guarantee.
 */
export const SUBSCRIPTION_CONCURRENCY = 16;

export interface WebhookKindOptions {
  timeoutMs: number;
  random: () => number;
  log: LogFn;
}

/** Webhooks as the outbound loop's first kind: one target per subscription. */
export function webhookKind(ctx: WorkerContext, options: WebhookKindOptions): OutboundKind<ClaimedDelivery, AttemptResult> {
  // The SSRF guard vets every address at connect time; only the operator's setting lifts it.
  const dispatcher = outboundDispatcher(ctx.config, options.timeoutMs);
  const box = secretBox(ctx.config.secretKey);
  // One per loop: it keeps where this worker's claims left off.
  let claim: ReturnType<typeof deliveryClaimer> | undefined;
  return {
    name: 'webhook',
    notifyChannel: DELIVERIES_CHANNEL,
    claim: (worker, request) => (claim ??= deliveryClaimer(worker.pool))(request),
    send: (delivery, now) => sendDelivery(delivery, now, { dispatcher, box, timeoutMs: options.timeoutMs }),
    record: (worker, attempts) => recordAttempts({ ...worker, random: options.random, log: options.log }, attempts),
    close: () => dispatcher.close(),
  };
}

/** Webhooks as the worker runs them (options: startDeliveryLoop's). */
export function webhookLane(ctx: WorkerContext, options: DeliveryLoopOptions = {}): OutboundLane {
  const { perSubscription = SUBSCRIPTION_CONCURRENCY, timeoutMs = 10_000, random = Math.random, ...loop } = options;
  const log = loop.log ?? (() => undefined);
  return { kind: webhookKind(ctx, { timeoutMs, random, log }), options: { ...loop, perTarget: perSubscription } };
}

/** Starts delivering webhooks in this process (see startOutboundLoop). */
export function startDeliveryLoop(ctx: WorkerContext, options: DeliveryLoopOptions = {}): Promise<DeliveryLoop> {
  const { kind, options: loop } = webhookLane(ctx, options);
  return startOutboundLoop(ctx, kind, loop);
}
