/** The delivery log's polling rule, apart from the query so it is tested without a browser. */

/** What the rule reads of a delivery. */
export interface PolledDelivery {
  status: string;
  nextAttemptAt: string | null;
}

/** A pending delivery due within this long is worth watching; one due later (a retry in minutes or hours) is not polled for. */
const DUE_SOON_MS = 5_000;
/** At most this many answers per log by polling: past it the log waits for its refresh button. */
const MAX_POLLS = 30;

/**
 * Asks again every second only while a pending delivery is due within a few seconds (or, for a
 * ping, while its delivery has not appeared yet), and never more than MAX_POLLS times.
 */
export function pollWhileDueSoon(deliveries: readonly PolledDelivery[] | undefined, updates: number, waitingForFirst: boolean, nowMs: number): number | false {
  if (updates >= MAX_POLLS) return false;
  const dueSoon = deliveries?.some((d) => d.status === 'pending' && (d.nextAttemptAt === null || Date.parse(d.nextAttemptAt) - nowMs <= DUE_SOON_MS));
  return dueSoon || (waitingForFirst && deliveries?.length === 0) ? 1000 : false;
}
