import type { Dispatcher } from 'undici';
import type { WorkerContext } from '../../jobs/define-task.js';
import { claimDueDeliveries, type ClaimedDelivery } from './deliver-claim.js';
import { listenForDeliveries, type Listener, type LogFn } from './deliver-listen.js';
import { attemptRecorder } from './deliver-record.js';
import { sendDelivery } from './deliver-send.js';
import { secretBox, type SecretBox } from './secret-box.js';
import { createGuardedDispatcher } from './target-guard.js';

export interface DeliveryLoopOptions {
  /** Deliveries this process holds at once: waiting for a slot, being sent, or being recorded. */
  maxInFlight?: number;
  /** Requests under way per subscription in this process: a slow endpoint only slows itself. */
  perSubscription?: number;
  /** How long a claim is held; a crashed worker's deliveries are retried after it. */
  leaseMs?: number;
  /** Whole attempt timeout. */
  timeoutMs?: number;
  /** Safety poll for due retries and missed notifications; null: none (tests drive runOnce/drain). */
  pollIntervalMs?: number | null;
  /** LISTEN for new deliveries (picked up within milliseconds of commit). */
  listen?: boolean;
  /** Jitter source of the retry schedule. */
  random?: () => number;
  log?: LogFn;
}

export interface DeliveryLoop {
  /** One claim pass, then waits for every delivery in flight; resolves with how many it claimed. */
  runOnce(): Promise<number>;
  /** Claim passes until nothing is due by ctx.clock and nothing is in flight. */
  drain(): Promise<void>;
  /** Stops claiming; the deliveries already claimed are still sent and recorded before it resolves. */
  stop(): Promise<void>;
}

type Settings = Required<DeliveryLoopOptions>;

/** One subscription's deliveries in this worker: requests under way, and claimed ones waiting for a slot. */
interface Lane {
  sending: number;
  waiting: ClaimedDelivery[];
}

const DEFAULTS: Settings = {
  maxInFlight: 128,
  perSubscription: 4,
  leaseMs: 30_000,
  timeoutMs: 10_000,
  pollIntervalMs: 1000,
  listen: true,
  random: Math.random,
  log: () => undefined,
};

class Loop implements DeliveryLoop {
  private readonly inFlight = new Set<Promise<void>>();
  /** Claimed and not yet recorded. */
  private held = 0;
  private readonly lanes = new Map<string, Lane>();
  /** Claim passes run one after another; this is the tail of that chain. */
  private passes: Promise<unknown> = Promise.resolve();
  private passQueued = false;
  private stopped = false;
  private poll: NodeJS.Timeout | undefined;
  private listener: Listener | null = null;
  private readonly record: ReturnType<typeof attemptRecorder>;

  constructor(
    private readonly ctx: WorkerContext,
    private readonly settings: Settings,
    private readonly dispatcher: Dispatcher,
    private readonly box: SecretBox,
  ) {
    this.record = attemptRecorder({ ...ctx, random: settings.random });
  }

  async start(): Promise<void> {
    const { pollIntervalMs, listen, log } = this.settings;
    if (listen) this.listener = await listenForDeliveries(this.ctx.pool.options, () => this.wake(), log);
    if (pollIntervalMs !== null) this.poll = setInterval(() => this.wake(), pollIntervalMs).unref();
    this.wake();
  }

  /** A claim pass runs soon; wake-ups while one is queued collapse into it. */
  private wake(): void {
    if (this.stopped || this.passQueued) return;
    this.passQueued = true;
    this.queuePass().catch((err: Error) => this.settings.log('error', `webhook delivery claim failed: ${err.message}`));
  }

  async runOnce(): Promise<number> {
    const claimed = await this.queuePass();
    await this.settle();
    return claimed;
  }

  async drain(): Promise<void> {
    while ((await this.runOnce()) > 0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.poll);
    await this.listener?.close();
    await this.passes;
    await this.settle();
    await this.dispatcher.close();
  }

  private queuePass(): Promise<number> {
    const pass = this.passes.then(() => {
      this.passQueued = false;
      return this.claimAndSend();
    });
    this.passes = pass.catch(() => undefined);
    return pass;
  }

  /**
   * Claims for every subscription up to twice its slots: the second half waits in its lane and
   * starts the moment a slot frees, so a busy endpoint never waits for a claim round trip.
   */
  private async claimAndSend(): Promise<number> {
    const capacity = this.settings.maxInFlight - this.held;
    if (this.stopped || capacity <= 0) return 0;
    const claimed = await claimDueDeliveries(this.ctx.pool, {
      now: this.ctx.clock.now(),
      limit: capacity,
      perSubscription: 2 * this.settings.perSubscription,
      held: new Map([...this.lanes].map(([id, lane]) => [id, lane.sending + lane.waiting.length])),
      leaseMs: this.settings.leaseMs,
    });
    this.held += claimed.length;
    for (const delivery of claimed) this.lane(delivery.subscriptionId).waiting.push(delivery);
    for (const subscriptionId of new Set(claimed.map((delivery) => delivery.subscriptionId))) this.startWaiting(subscriptionId);
    return claimed.length;
  }

  private lane(subscriptionId: string): Lane {
    let lane = this.lanes.get(subscriptionId);
    if (!lane) this.lanes.set(subscriptionId, (lane = { sending: 0, waiting: [] }));
    return lane;
  }

  /** Fills the subscription's free slots from its lane. */
  private startWaiting(subscriptionId: string): void {
    const lane = this.lanes.get(subscriptionId)!;
    while (lane.sending < this.settings.perSubscription && lane.waiting.length > 0) {
      lane.sending++;
      this.track(this.deliver(lane.waiting.shift()!));
    }
    if (lane.sending === 0) this.lanes.delete(subscriptionId);
  }

  /** A finished delivery frees room: look for more work. */
  private track(delivery: Promise<void>): void {
    this.inFlight.add(delivery);
    void delivery.finally(() => {
      this.inFlight.delete(delivery);
      this.wake();
    });
  }

  private async deliver(delivery: ClaimedDelivery): Promise<void> {
    try {
      const result = await this.send(delivery);
      await this.record(delivery, result);
    } catch (err) {
      // Unrecorded, the lease runs out and the delivery is tried again: nothing is lost.
      this.settings.log('error', `webhook delivery ${delivery.id} attempt ${delivery.attempt} not recorded: ${(err as Error).message}`);
    } finally {
      this.held--;
    }
  }

  /** The slot frees as soon as the answer is in (before it is recorded): the next waiting delivery starts. */
  private async send(delivery: ClaimedDelivery) {
    try {
      return await sendDelivery(delivery, this.ctx.clock.now(), { dispatcher: this.dispatcher, box: this.box, timeoutMs: this.settings.timeoutMs });
    } finally {
      this.lanes.get(delivery.subscriptionId)!.sending--;
      this.startWaiting(delivery.subscriptionId);
      this.wake();
    }
  }

  private async settle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all(this.inFlight);
  }
}

/**
 * Starts delivering webhooks in this process: LISTEN wakes it at each commit that queued
 * deliveries, a slow poll catches due retries, and every "due" is judged by ctx.clock.
 */
export async function startDeliveryLoop(ctx: WorkerContext, options: DeliveryLoopOptions = {}): Promise<DeliveryLoop> {
  // An option given as undefined keeps its default.
  const given = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
  const settings: Settings = { ...DEFAULTS, ...given };
  // The SSRF guard vets every address at connect time; only the operator's setting lifts it.
  const dispatcher = createGuardedDispatcher({ allowPrivate: ctx.config.webhookAllowPrivateTargets, connectTimeoutMs: settings.timeoutMs });
  const loop = new Loop(ctx, settings, dispatcher, secretBox(ctx.config.secretKey));
  await loop.start();
  return loop;
}
