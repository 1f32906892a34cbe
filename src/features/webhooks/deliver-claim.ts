import type pg from 'pg';
import { eventEnvelope, type EventEnvelope, type EventType } from '../events/index.js';
import { ASYNC_COMMIT } from '../../platform/outbound/index.js';
import type { ClaimRequest, OutboundItem } from '../../platform/outbound/index.js';
import { MAX_ATTEMPTS } from './retry-policy.js';

export interface ClaimedDelivery extends OutboundItem {
  companyId: string;
  subscriptionId: string;
  url: string;
  secretSealed: Buffer;
  previousSecretSealed: Buffer | null;
  previousSecretExpiresAt: Date | null;
  event: EventEnvelope;
}

interface ClaimedRow {
  id: string;
  company_id: string;
  subscription_id: string;
  attempt: number;
  url: string;
  secret_sealed: Buffer;
  previous_secret_sealed: Buffer | null;
  previous_secret_expires_at: Date | null;
  event_id: string;
  type: EventType;
  data: EventEnvelope['data'];
  occurred_at: Date;
  due: Date;
}

export const ABANDONED_ERROR = 'abandoned: the worker stopped before recording a result, and its lease expired';

/**
 * Parameters: $1 now, $2 lease end, $3 lease ms, $4 per-subscription cap, $5 limit, $6 max attempts,
 * $7 abandoned error, $8 subscriptions the worker holds deliveries of, $9 how many of each,
 * $10 subscriptions with a floor, $11 their floors (see DeliveryClaimer).
 */
const CLAIM_SQL = `
  WITH candidate AS (
    SELECT d.id, d.attempts AS prior_attempts, d.lease_until AS lost_lease, d.next_attempt_at AS due
    FROM (
      SELECT s.id, $4::int - coalesce(h.held, 0) AS free, coalesce(f.floor, '-infinity') AS floor
      FROM webhook_subscriptions s
      LEFT JOIN unnest($8::uuid[], $9::int[]) AS h(subscription_id, held) ON h.subscription_id = s.id
      LEFT JOIN unnest($10::uuid[], $11::timestamptz[]) AS f(subscription_id, floor) ON f.subscription_id = s.id
      WHERE s.enabled AND coalesce(h.held, 0) < $4::int
      ORDER BY random()
    ) AS s
    CROSS JOIN LATERAL (
      SELECT d.id, d.attempts, d.lease_until, d.next_attempt_at FROM webhook_deliveries d
      WHERE d.subscription_id = s.id AND d.status = 'pending' AND d.next_attempt_at <= $1::timestamptz AND d.next_attempt_at >= s.floor
      ORDER BY d.next_attempt_at
      LIMIT greatest(0, s.free)
      FOR UPDATE SKIP LOCKED
    ) AS d
    LIMIT $5::int
  ), claimed AS (
    UPDATE webhook_deliveries d SET
      attempts = CASE WHEN c.prior_attempts >= $6::int THEN d.attempts ELSE d.attempts + 1 END,
      status = CASE WHEN c.prior_attempts >= $6::int THEN 'failed' ELSE 'pending' END,
      completed_at = CASE WHEN c.prior_attempts >= $6::int THEN $1::timestamptz END,
      lease_until = CASE WHEN c.prior_attempts >= $6::int THEN NULL ELSE $2::timestamptz END,
      next_attempt_at = $2::timestamptz
    FROM candidate c
    WHERE d.id = c.id
    RETURNING d.id, d.company_id, d.subscription_id, d.event_id, d.attempts, d.status, c.prior_attempts, c.lost_lease, c.due
  ), lost AS (
    INSERT INTO webhook_attempts (company_id, delivery_id, attempt, started_at, error)
    SELECT company_id, id, prior_attempts, lost_lease - $3::int * interval '1 millisecond', $7::text
    FROM claimed WHERE lost_lease IS NOT NULL
    ON CONFLICT (company_id, delivery_id, attempt) DO NOTHING
  )
  SELECT c.id, c.company_id, c.subscription_id, c.attempts AS attempt, c.due,
    s.url, s.secret_sealed, s.previous_secret_sealed, s.previous_secret_expires_at,
    e.id AS event_id, e.type, e.data, e.occurred_at, ${ASYNC_COMMIT} AS commit_mode
  FROM claimed c
  JOIN webhook_subscriptions s ON s.id = c.subscription_id
  JOIN events e ON e.company_id = c.company_id AND e.id = c.event_id
  WHERE c.status = 'pending'`;

/**
 * Leases due deliveries in one statement, so no transaction stays open while they are sent.
 *
 * - Subscriptions are visited in random order (fair when `limit` is short), each for at most what
 *   this worker may still hold of it: a slow endpoint's backlog only ever occupies its own slots.
 *   SKIP LOCKED keeps concurrent workers off each other's rows.
 * - A claim sets lease_until and moves next_attempt_at to it: a worker that dies mid-delivery
 *   leaves a row that simply becomes due again when the lease ends. That lost attempt is logged
 *   and counts; past the last attempt the delivery is failed instead of sent again.
 * - Deliveries of a disabled subscription stay pending, untouched, until it is enabled.
 * - Per subscription, only rows due at or after its floor (when given) are looked at.
 *
 * Planned at every call, never as a named prepared statement: a connection keeps the generic
 * plan of a named statement, and one made while the table was small (a fresh install, a worker
 * started on an empty queue) scans the whole table on every call once it has grown (see
 * writeOutcomes).
 */
async function claimRows(pool: pg.Pool, options: ClaimRequest, floors: ReadonlyMap<string, number>): Promise<ClaimedRow[]> {
  const leaseUntil = new Date(options.now.getTime() + options.leaseMs);
  const result = await pool.query<ClaimedRow>({
    text: CLAIM_SQL,
    values: [
      options.now,
      leaseUntil,
      options.leaseMs,
      options.perTarget,
      options.limit,
      MAX_ATTEMPTS,
      ABANDONED_ERROR,
      [...options.held.keys()],
      [...options.held.values()],
      [...floors.keys()],
      [...floors.values()].map((ms) => new Date(ms)),
    ],
  });
  return result.rows;
}

/**
 * How far below the latest due time it claimed of a subscription a worker's next ordinary claim
 * starts: an event is stamped (its deliveries' due time) a little before its transaction commits,
 * so commits can land slightly out of due order.
 */
export const FLOOR_MARGIN_MS = 200;

/**
 * The claim of one worker's loop. A delivered row leaves its entry in the partial "due" index
 * until vacuum can remove it, and vacuum cannot while any transaction on the server is older
 * than the row, so a claim scanning a subscription's due range from its start walks every
 * delivery finished since: its cost grew with the run (about 530 buffer visits per subscription
 * 10,000 deliveries into the steady bench) and claims run back to back. Ordinary passes therefore
 * start each subscription at a floor, FLOOR_MARGIN_MS below the latest due time this worker
 * claimed of it; sweeps (the loop's poll, drain) start from the beginning, for what lies below a
 * floor: a transaction that committed later than the margin, a retry or a lost lease that fell
 * due behind newer work. Those wait at most one poll interval (1 s by default).
 */
export function deliveryClaimer(pool: pg.Pool): (request: ClaimRequest) => Promise<ClaimedDelivery[]> {
  const floors = new Map<string, number>();
  return async (request) => {
    const rows = await claimRows(pool, request, request.sweep ? new Map() : floors);
    for (const row of rows) {
      const floor = row.due.getTime() - FLOOR_MARGIN_MS;
      if (floor > (floors.get(row.subscription_id) ?? -Infinity)) floors.set(row.subscription_id, floor);
    }
    return rows.map(toClaimedDelivery);
  };
}

function toClaimedDelivery(row: ClaimedRow): ClaimedDelivery {
  return {
    id: row.id,
    companyId: row.company_id,
    subscriptionId: row.subscription_id,
    // A slow endpoint only occupies its own slots.
    target: row.subscription_id,
    attempt: row.attempt,
    url: row.url,
    secretSealed: row.secret_sealed,
    previousSecretSealed: row.previous_secret_sealed,
    previousSecretExpiresAt: row.previous_secret_expires_at,
    event: eventEnvelope({ id: row.event_id, type: row.type, occurredAt: row.occurred_at, companyId: row.company_id, data: row.data }),
  };
}
