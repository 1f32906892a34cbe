import type { SQL } from 'drizzle-orm';
import type { EventEnvelope } from './catalog.js';

/**
 * A feature that acts on every stored event (webhooks fan it out to subscriptions). Its work is a
 * fragment of the event's own INSERT statement, never a second statement: the event and what it
 * causes (its deliveries) are written together, in one round trip of the caller's transaction.
 */
export interface EventConsumer {
  /** Names the consumer's CTE in the statement (an SQL identifier). */
  name: string;
  /**
   * A data-modifying CTE body for `event` (INSERT ... SELECT ... RETURNING 1), or null when the
   * consumer has nothing to do. `addressedTo` is set for an event meant for one recipient (a ping).
   */
  consume(event: EventEnvelope, addressedTo: string | undefined): SQL | null;
  /** Evaluated once the statement's rows are written, with the count the CTE returned (a wake-up NOTIFY, say). */
  after?(count: SQL): SQL;
}
