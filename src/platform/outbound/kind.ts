import type { WorkerContext } from '../jobs/define-task.js';

export type LogFn = (level: 'info' | 'warn' | 'error', message: string) => void;

/** What the loop asks a kind to lease in one claim pass. */
export interface ClaimRequest {
  /** From the loop's clock: "due" is decided by it, never by the database's now(). */
  now: Date;
  /** At most this many items in all. */
  limit: number;
  /** At most this many held at once per target by this worker... */
  perTarget: number;
  /** ...which already holds this many of these targets. */
  held: ReadonlyMap<string, number>;
  /** How long a claim is held; a crashed worker's items become due again after it. */
  leaseMs: number;
  /**
   * Look at everything due (the poll, runOnce and drain): a kind may start ordinary passes where
   * its last claims left off, and must not take that shortcut in a sweep.
   */
  sweep: boolean;
}

export interface OutboundItem {
  id: string;
  /** Per-target concurrency key: a subscription id, 'smtp', company + provider... */
  target: string;
  /** This attempt's number (1 for the first); also the fencing token of the lease. */
  attempt: number;
}

/**
 * One kind of outbound work (webhooks, e-mail, WhatsApp) for the outbound loop: the loop owns
 * concurrency, wake-ups and batching; the kind owns its tables, its transport and its retry policy.
 */
export interface OutboundKind<I extends OutboundItem, R> {
  /** 'webhook' | 'email' | 'whatsapp': logs and metrics. */
  name: string;
  /** LISTEN channel notified by commits that queue work of this kind. */
  notifyChannel: string;
  /** Leases due items (FOR UPDATE SKIP LOCKED, lease end, attempt number as fencing token). */
  claim(ctx: WorkerContext, request: ClaimRequest): Promise<I[]>;
  /** One attempt. Must not throw for a delivery failure: the failure is an outcome. */
  send(item: I, now: Date): Promise<R>;
  /** Writes a batch of results (group commit); the retry schedule is applied here. */
  record(ctx: WorkerContext, items: { item: I; result: R }[]): Promise<void>;
  /**
   * A target's slot stays taken until the attempt's result is recorded, not only answered, and a
   * record that fails (the database away) is tried again, the slot still taken, until the lease
   * would have ended. With a record that waits for its commit to be flushed, what a crash of this
   * process or of the database can send twice is then at most the slots of each target.
   */
  slotUntilRecorded?: boolean;
  /** Releases the transport (sockets, SMTP pool). */
  close?(): Promise<void>;
}
