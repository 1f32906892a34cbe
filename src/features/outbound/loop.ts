import type { WorkerContext } from '../../jobs/define-task.js';
import type { LogFn, OutboundItem, OutboundKind } from './kind.js';
import { listenForWork, type Listener } from './listen.js';

export interface OutboundLoopOptions {
  /** Items this process holds at once: waiting for a slot, being sent, or being recorded. */
  maxInFlight?: number;
  /** Sends under way per target in this process: a slow target only slows itself. */
  perTarget?: number;
  /** How long a claim is held; a crashed worker's items are retried after it. */
  leaseMs?: number;
  /** Safety poll for due retries and missed notifications; null: none (tests drive runOnce/drain). */
  pollIntervalMs?: number | null;
  /** LISTEN on the kind's channel (new work picked up within milliseconds of commit). */
  listen?: boolean;
  log?: LogFn;
}

export interface OutboundLoop {
  /** One claim pass, then waits for every item in flight; resolves with how many it claimed. */
  runOnce(): Promise<number>;
  /** Claim passes until nothing is due by ctx.clock and nothing is in flight. */
  drain(): Promise<void>;
  /** Stops claiming; the items already claimed are still sent and recorded before it resolves. */
  stop(): Promise<void>;
}

type Settings = Required<OutboundLoopOptions>;

/** One target's items in this worker: sends under way, and claimed items waiting for a slot. */
interface Lane<I> {
  sending: number;
  waiting: I[];
}

const DEFAULTS: Settings = {
  maxInFlight: 128,
  perTarget: 4,
  leaseMs: 30_000,
  pollIntervalMs: 1000,
  listen: true,
  log: () => undefined,
};

/** Most results written by one record call. */
const MAX_BATCH = 200;

class Loop<I extends OutboundItem, R> implements OutboundLoop {
  private readonly inFlight = new Set<Promise<void>>();
  /** Claimed and not yet recorded. */
  private held = 0;
  private readonly lanes = new Map<string, Lane<I>>();
  /** Claim passes run one after another; this is the tail of that chain. */
  private passes: Promise<unknown> = Promise.resolve();
  private passQueued = false;
  private stopped = false;
  private poll: NodeJS.Timeout | undefined;
  private listener: Listener | null = null;
  /** Results waiting for the record call under way: written together by the next one (group commit). */
  private readonly unrecorded: { item: I; result: R; resolve: () => void; reject: (err: unknown) => void }[] = [];
  private recording = false;

  constructor(
    private readonly ctx: WorkerContext,
    private readonly kind: OutboundKind<I, R>,
    private readonly settings: Settings,
  ) {}

  async start(): Promise<void> {
    const { pollIntervalMs, listen, log } = this.settings;
    if (listen) this.listener = await listenForWork(this.ctx.pool.options, this.kind.notifyChannel, () => this.wake(), log);
    if (pollIntervalMs !== null) this.poll = setInterval(() => this.wake(), pollIntervalMs).unref();
    this.wake();
  }

  /** A claim pass runs soon; wake-ups while one is queued collapse into it. */
  private wake(): void {
    if (this.stopped || this.passQueued) return;
    this.passQueued = true;
    this.queuePass().catch((err: Error) => this.settings.log('error', `${this.kind.name} claim failed: ${err.message}`));
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
    await this.kind.close?.();
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
   * Claims for every target up to twice its slots: the second half waits in its lane and starts
   * the moment a slot frees, so a busy target never waits for a claim round trip.
   */
  private async claimAndSend(): Promise<number> {
    const capacity = this.settings.maxInFlight - this.held;
    if (this.stopped || capacity <= 0) return 0;
    const claimed = await this.kind.claim(this.ctx, {
      now: this.ctx.clock.now(),
      limit: capacity,
      perTarget: 2 * this.settings.perTarget,
      held: new Map([...this.lanes].map(([target, lane]) => [target, lane.sending + lane.waiting.length])),
      leaseMs: this.settings.leaseMs,
    });
    this.held += claimed.length;
    for (const item of claimed) this.lane(item.target).waiting.push(item);
    for (const target of new Set(claimed.map((item) => item.target))) this.startWaiting(target);
    return claimed.length;
  }

  private lane(target: string): Lane<I> {
    let lane = this.lanes.get(target);
    if (!lane) this.lanes.set(target, (lane = { sending: 0, waiting: [] }));
    return lane;
  }

  /** Fills the target's free slots from its lane. */
  private startWaiting(target: string): void {
    const lane = this.lanes.get(target)!;
    while (lane.sending < this.settings.perTarget && lane.waiting.length > 0) {
      lane.sending++;
      this.track(this.deliver(lane.waiting.shift()!));
    }
    if (lane.sending === 0) this.lanes.delete(target);
  }

  /** A finished item frees room: look for more work. */
  private track(work: Promise<void>): void {
    this.inFlight.add(work);
    void work.finally(() => {
      this.inFlight.delete(work);
      this.wake();
    });
  }

  private async deliver(item: I): Promise<void> {
    try {
      await this.record(item, await this.send(item));
    } catch (err) {
      // Unrecorded, the lease runs out and the item is tried again: nothing is lost.
      this.settings.log('error', `${this.kind.name} ${item.id} attempt ${item.attempt} not recorded: ${(err as Error).message}`);
    } finally {
      this.held--;
    }
  }

  /** The slot frees as soon as the answer is in (before it is recorded): the next waiting item starts. */
  private async send(item: I): Promise<R> {
    try {
      return await this.kind.send(item, this.ctx.clock.now());
    } finally {
      this.lanes.get(item.target)!.sending--;
      this.startWaiting(item.target);
      this.wake();
    }
  }

  /**
   * Results finishing while a record call is under way are written together by the next one:
   * one statement and one commit for many items under load, no added wait when idle.
   */
  private record(item: I, result: R): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.unrecorded.push({ item, result, resolve, reject });
      if (!this.recording) void this.recordQueued();
    });
  }

  private async recordQueued(): Promise<void> {
    this.recording = true;
    while (this.unrecorded.length > 0) {
      const batch = this.unrecorded.splice(0, MAX_BATCH);
      try {
        await this.kind.record(this.ctx, batch.map(({ item, result }) => ({ item, result })));
        for (const entry of batch) entry.resolve();
      } catch (err) {
        for (const entry of batch) entry.reject(err);
      }
    }
    this.recording = false;
  }

  private async settle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all(this.inFlight);
  }
}

/**
 * Starts an outbound loop of one kind in this process: LISTEN wakes it at each commit that queued
 * work, a slow poll catches due retries, and every "due" is judged by ctx.clock.
 */
export async function startOutboundLoop<I extends OutboundItem, R>(
  ctx: WorkerContext,
  kind: OutboundKind<I, R>,
  options: OutboundLoopOptions = {},
): Promise<OutboundLoop> {
  // An option given as undefined keeps its default.
  const given = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
  const loop = new Loop(ctx, kind, { ...DEFAULTS, ...given });
  await loop.start();
  return loop;
}
