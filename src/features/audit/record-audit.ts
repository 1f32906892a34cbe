import type { DbOrTx } from '../../platform/db/database.js';
import { auditRecords } from '../../platform/db/schema.js';
import type { Clock } from '../../lib/clock.js';
import type { IdGenerator } from '../../lib/ids.js';

export interface AuditInput {
  /** The company the act concerns; null when there is none (a failed sign-in for an unknown address). */
  companyId: string | null;
  /** Who acted: the user (null for an unknown address) and the address they gave or hold. */
  actor: { userId: string | null; email: string | null };
  /** What: a dotted name (`session.signed_in`, `key.created`, ...). */
  action: string;
  details?: Record<string, unknown>;
  /** From where: the client address. */
  ip: string | null;
}

/**
 * Writes one audit record. Call it with the transaction of the act itself, so the act and its record
 * stand or fall together.
 */
export async function recordAudit(db: DbOrTx, deps: { clock: Clock; newId: IdGenerator }, input: AuditInput): Promise<void> {
  await db.insert(auditRecords).values({
    id: deps.newId(),
    companyId: input.companyId,
    actorUserId: input.actor.userId,
    // a typed address is bounded by the sign-in schema; cut defensively, it is a record, not a key
    actorEmail: input.actor.email?.slice(0, 320) ?? null,
    action: input.action,
    details: input.details ?? {},
    ip: input.ip,
    createdAt: deps.clock.now(),
  });
}
