import type pg from 'pg';
import { eventEnvelope, type EventEnvelope, type EventType } from '../events/catalog.js';
import type { ClaimRequest, OutboundItem } from '../outbound/kind.js';
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
}

export const ABANDONED_ERROR = 'abandoned: the worker stopped before recording a result, and its lease expired';

/**
 * Parameters: $1 now, $2 lease end, $3 lease ms, $4 per-subscription cap, $5 limit, $6 max attempts,
 * $7 abandoned error, $8 subscriptions the worker holds deliveries of, $9 how many of each.
 */
const CLAIM_SQL = `
  WITH candidate AS (
    SELECT d.id, d.attempts AS prior_attempts, d.lease_until AS lost_lease
    FROM (
      SELECT s.id, $4::int - coalesce(h.held, 0) AS free
      FROM webhook_subscriptions s
      LEFT JOIN unnest($8::uuid[], $9::int[]) AS h(subscription_id, held) ON h.subscription_id = s.id
      WHERE s.enabled AND coalesce(h.held, 0) < $4::int
      ORDER BY random()
    ) AS s
    CROSS JOIN LATERAL (
      SELECT d.id, d.attempts, d.lease_until FROM webhook_deliveries d
      WHERE d.subscription_id = s.id AND d.status = 'pending' AND d.next_attempt_at <= $1::timestamptz
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
    RETURNING d.id, d.company_id, d.subscription_id, d.event_id, d.attempts, d.status, c.prior_attempts, c.lost_lease
  ), lost AS (
    INSERT INTO webhook_attempts (company_id, delivery_id, attempt, started_at, error)
    SELECT company_id, id, prior_attempts, lost_lease - $3::int * interval '1 millisecond', $7::text
    FROM claimed WHERE lost_lease IS NOT NULL
    ON CONFLICT (delivery_id, attempt) DO NOTHING
  )
  SELECT c.id, c.company_id, c.subscription_id, c.attempts AS attempt,
    s.url, s.secret_sealed, s.previous_secret_sealed, s.previous_secret_expires_at,
    e.id AS event_id, e.type, e.data, e.occurred_at
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
 *
 * Runs on the pool as a named prepared statement: the delivery loop's hot path.
 */
export async function claimDueDeliveries(pool: pg.Pool, options: ClaimRequest): Promise<ClaimedDelivery[]> {
  const leaseUntil = new Date(options.now.getTime() + options.leaseMs);
  const result = await pool.query<ClaimedRow>({
    name: 'webhooks.claim',
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
    ],
  });
  return result.rows.map(toClaimedDelivery);
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
