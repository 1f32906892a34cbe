import type { SQL } from 'drizzle-orm';

/**
 * A feature that acts on every stored event (webhooks fan it out to subscriptions). Its work is a
 * fragment of the events' own INSERT statement, never a second statement: the events and what they
 * cause (their deliveries) are written together, in one round trip of the caller's transaction.
 */
export interface EventConsumer {
  /** Names the consumer's CTE in the statement (an SQL identifier). */
  name: string;
  /**
   * A data-modifying CTE body (INSERT ... SELECT ... RETURNING 1) over `events`, a relation
   * `e(id uuid, company_id uuid, type text, occurred_at timestamptz)` of the events being stored, or
   * null when the consumer has nothing to do. `addressedTo` is set for an event meant for one
   * recipient (a ping).
   */
  consume(events: SQL, addressedTo: string | undefined): SQL | null;
  /** Evaluated once the statement's rows are written, with the count the CTE returned (a wake-up NOTIFY, say). */
  after?(count: SQL): SQL;
}
