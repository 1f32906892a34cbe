import { performance } from 'node:perf_hooks';
import type { WorkerContext } from '../jobs/define-task.js';
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

/** A claimed item and the end of its lease by ctx.clock (ms), stamped when it was claimed, as the kind's claim stamps it. */
interface Claimed<I> {
  item: I;
  leaseEnd: number;
}

/** One target's items in this worker: sends under way, and claimed items waiting for a slot. */
interface Lane<I> {
  sending: number;
  waiting: Claimed<I>[];
}

const DEFAULTS: Settings = {
  maxInFlight: 128,
  perTarget: 4,
  leaseMs: 30_000,
  pollIntervalMs: 1000,
  listen: true,
  log: () => undefined,
};

/** After falling asleep, the loop looks again this much later: for work whose queueing transaction checked for sleepers before and committed after. */
const RECHECKS_MS = [20, 200];
/** Awake, no notification comes: a pass runs at least this often (new targets' work, when every lane is slow). */
const AWAKE_PASS_MS = 50;

/** Most results written by one record call. */
const MAX_BATCH = 200;
/** A failed record (slotUntilRecorded) is tried again after this long, doubling up to RECORD_RETRY_MAX_MS. */
const RECORD_RETRY_MS = 100;
const RECORD_RETRY_MAX_MS = 2000;

class Loop<I extends OutboundItem, R> implements OutboundLoop {
  private readonly inFlight = new Set<Promise<void>>();
  /** Claimed and not yet recorded. */
  private held = 0;
  private readonly lanes = new Map<string, Lane<I>>();
  /** Claim passes run one after another; this is the tail of that chain. */
  private passes: Promise<unknown> = Promise.resolve();
  private passQueued = false;
  /** The next pass is a sweep (ClaimRequest.sweep): asked for by the poll, runOnce or drain. */
  private sweepQueued = false;
  private stopped = false;
  private poll: NodeJS.Timeout | undefined;
  private listener: Listener | null = null;
  /** Nothing claimed and nothing held at the last pass: work queued from now on notifies. Null: no pass yet. */
  private asleep: boolean | null = null;
  private readonly rechecks = new Set<NodeJS.Timeout>();
  private awakePasses: NodeJS.Timeout | undefined;
  /** performance.now() when the last claim pass began. */
  private lastPass = 0;
  /** The last pass found every place taken (maxInFlight held): the next recorded item wakes the loop. */
  private full = false;
  /** Results waiting for the record call under way: written together by the next one (group commit). */
  private readonly unrecorded: { item: I; result: R; retryUntil: number; resolve: () => void; reject: (err: unknown) => void }[] = [];
  private recording = false;

  constructor(
    private readonly ctx: WorkerContext,
    private readonly kind: OutboundKind<I, R>,
    private readonly settings: Settings,
  ) {}

  async start(): Promise<void> {
    const { pollIntervalMs, listen, log } = this.settings;
    if (listen) this.listener = await listenForWork(this.ctx.pool.options, this.kind.notifyChannel, () => this.wake(), log);
    if (pollIntervalMs !== null) this.poll = setInterval(() => this.wake(true), pollIntervalMs).unref();
    this.wake(true);
  }

  /** A claim pass runs soon; wake-ups while one is queued collapse into it (a sweep if any asked for one). */
  private wake(sweep = false): void {
    if (sweep) this.sweepQueued = true;
    if (this.stopped || this.passQueued) return;
    this.passQueued = true;
    this.queuePass().catch((err: Error) => this.settings.log('error', `${this.kind.name} claim failed: ${err.message}`));
  }

  async runOnce(): Promise<number> {
    this.sweepQueued = true;
    const claimed = await this.queuePass();
    await this.settle();
    return claimed;
  }

  async drain(): Promise<void> {
    // A pass woken meanwhile may have claimed what this one found no room for.
    while ((await this.runOnce()) > 0 || this.held > 0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.poll);
    for (const timer of this.rechecks) clearTimeout(timer);
    clearInterval(this.awakePasses);
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
    this.lastPass = performance.now();
    const capacity = this.settings.maxInFlight - this.held;
    this.full = capacity <= 0;
    if (this.stopped || this.full) return 0;
    const sweep = this.sweepQueued;
    this.sweepQueued = false;
    const now = this.ctx.clock.now();
    const leaseEnd = now.getTime() + this.settings.leaseMs;
    const claimed = await this.kind.claim(this.ctx, {
      sweep,
      now,
      limit: capacity,
      perTarget: 2 * this.settings.perTarget,
      held: new Map([...this.lanes].map(([target, lane]) => [target, lane.sending + lane.waiting.length])),
      leaseMs: this.settings.leaseMs,
    });
    this.held += claimed.length;
    this.setAsleep(claimed.length === 0 && this.held === 0);
    for (const item of claimed) this.lane(item.target).waiting.push({ item, leaseEnd });
    for (const target of new Set(claimed.map((item) => item.target))) this.startWaiting(target);
    return claimed.length;
  }

  /**
   * Awake, the loop finds new work by claiming again as items finish (and at least every
   * AWAKE_PASS_MS), and queueing transactions skip their NOTIFY; asleep, it shows itself to them
   * (see wakeSleepers).
   */
  private setAsleep(asleep: boolean): void {
    if (!this.listener || asleep === this.asleep) return;
    this.asleep = asleep;
    const shown = this.listener.setAsleep(asleep);
    if (!asleep) {
      this.awakePasses = setInterval(() => performance.now() - this.lastPass >= AWAKE_PASS_MS && this.wake(), AWAKE_PASS_MS).unref();
      return;
    }
    clearInterval(this.awakePasses);
    void shown.then(() => {
      for (const delay of RECHECKS_MS) {
        const timer = setTimeout(() => {
          this.rechecks.delete(timer);
          this.wake();
        }, delay).unref();
        this.rechecks.add(timer);
      }
    });
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

  /** A recorded item frees a place: with none left (or none held: maybe asleep now), look for more work. */
  private track(work: Promise<void>): void {
    this.inFlight.add(work);
    void work.finally(() => {
      this.inFlight.delete(work);
      if (this.full || this.held === 0) this.wake();
    });
  }

  private async deliver({ item, leaseEnd }: Claimed<I>): Promise<void> {
    const untilRecorded = this.kind.slotUntilRecorded === true;
    try {
      // Waiting for a slot outlived the lease: the item may be claimed elsewhere by now, so it is not sent here.
      if (this.ctx.clock.now().getTime() >= leaseEnd) {
        this.settings.log('warn', `${this.kind.name} ${item.id} attempt ${item.attempt} not sent: its lease ended while it waited for a slot`);
        if (!untilRecorded) this.freeSlot(item.target);
        return;
      }
      await this.record(item, await this.send(item, !untilRecorded));
    } catch (err) {
      // Unrecorded, the lease runs out and the item is tried again: nothing is lost.
      this.settings.log('error', `${this.kind.name} ${item.id} attempt ${item.attempt} not recorded: ${(err as Error).message}`);
    } finally {
      if (untilRecorded) this.freeSlot(item.target);
      this.held--;
    }
  }

  /** Unless the kind keeps it until the record, the slot frees as soon as the answer is in: the next waiting item starts. */
  private async send(item: I, freeSlot: boolean): Promise<R> {
    try {
      return await this.kind.send(item, this.ctx.clock.now());
    } finally {
      if (freeSlot) this.freeSlot(item.target);
    }
  }

  private freeSlot(target: string): void {
    this.lanes.get(target)!.sending--;
    this.startWaiting(target);
    // Wake-ups while a pass is under way collapse into the next one: passes run back to back
    // while items finish, each claiming what finished during the last.
    this.wake();
  }

  /**
   * Results finishing while a record call is under way are written together by the next one:
   * one statement and one commit for many items under load, no added wait when idle.
   */
  private record(item: I, result: R): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      // Retried for a lease's length from now, past the claim's lease too: the fencing token refuses a
      // late record if the item was claimed again, and a record that lands spares the recipient a repeat.
      this.unrecorded.push({ item, result, retryUntil: performance.now() + this.settings.leaseMs, resolve, reject });
      if (!this.recording) void this.recordQueued();
    });
  }

  private async recordQueued(): Promise<void> {
    this.recording = true;
    let retryMs = RECORD_RETRY_MS;
    while (this.unrecorded.length > 0) {
      const batch = this.unrecorded.splice(0, MAX_BATCH);
      try {
        await this.kind.record(this.ctx, batch.map(({ item, result }) => ({ item, result })));
        for (const entry of batch) entry.resolve();
        retryMs = RECORD_RETRY_MS;
      } catch (err) {
        // Past its lease an item may be claimed again elsewhere (and the fencing token refuses a late record): given up.
        const now = performance.now();
        const retried = this.kind.slotUntilRecorded ? batch.filter((entry) => entry.retryUntil > now) : [];
        for (const entry of batch) if (!retried.includes(entry)) entry.reject(err);
        if (retried.length === 0) continue;
        this.settings.log('warn', `${this.kind.name}: ${retried.length} results not recorded (${(err as Error).message}), trying again in ${retryMs} ms`);
        this.unrecorded.unshift(...retried);
        await new Promise((resolve) => setTimeout(resolve, retryMs));
        retryMs = Math.min(2 * retryMs, RECORD_RETRY_MAX_MS);
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
