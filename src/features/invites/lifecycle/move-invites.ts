import { sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../../../platform/db/database.js';
import { sqlArray } from '../../../lib/sql-array.js';
import type { FailReason } from '../../events/index.js';
import type { EmitDeps } from '../../events/index.js';
import { cancelPendingMessages } from '../cancel-messages.js';
import { emitInviteEvents, type InviteWithForm } from '../emit-invite-event.js';
import { INVITE_COLUMNS, INVITE_COLUMNS_NEWEST_SEND } from '../invite-view.js';
import { FINAL_STATUSES, INVITE_TRANSITIONS, type InviteMove } from './transitions.js';

/** A list of constant statuses as SQL literals (they name the expiry index's predicate, which a parameter would not match). */
const statusList = (statuses: readonly string[]) => sql.raw(statuses.map((status) => `'${status}'`).join(', '));

/** The invite (the relation `invite`) is in none of FINAL_STATUSES. */
export const notFinal = (invite: SQL) => sql`${invite}.status NOT IN (${statusList(FINAL_STATUSES)})`;

/** An invite (the relation `invite`, by default the table itself) that can still be answered at `now`: not final, not past its expiry. */
export function liveInvite(now: Date, invite: SQL = sql.raw('invites')): SQL {
  return sql`(${notFinal(invite)} AND (${invite}.expires_at IS NULL OR ${invite}.expires_at > ${now}))`;
}

/**
 * The UPDATE applying `move` (INVITE_TRANSITIONS) to the invites `targets` names: a relation with
 * company_id and invite_id per invite, plus the message's channel and batch_id for a move that
 * records it. One statement however many; usable as a data-modifying CTE. Returns each invite it
 * touched with its form's name, as its event reports it.
 */
export function moveInvitesSql(move: InviteMove, input: { targets: SQL; now: Date }): SQL {
  const { to, from, otherwise, recordsMessage, stamp, endsLink } = INVITE_TRANSITIONS[move];
  const { targets, now } = input;
  const moves = sql`i.status IN (${statusList(from)})`;
  const sets = [
    sql`status = CASE WHEN ${moves} THEN ${to} ELSE i.status END`,
    sql`status_changed_at = CASE WHEN ${moves} THEN ${now}::timestamptz ELSE i.status_changed_at END`,
    ...(recordsMessage ? [sql`channel = t.channel, send_batch_id = t.batch_id`] : []),
    ...(stamp ? [sql`${sql.raw(stamp)} = ${now}::timestamptz`] : []),
  ];
  const conditions = [
    ...(otherwise === 'skip' ? [moves] : []),
    ...(stamp ? [sql`i.${sql.raw(stamp)} IS NULL AND ${liveInvite(now, sql.raw('i'))}`] : []),
  ];
  return sql`
    UPDATE invites i SET ${sql.join(sets, sql`, `)}
      FROM ${targets} AS t, forms f
     WHERE i.company_id = t.company_id AND i.id = t.invite_id AND f.company_id = i.company_id AND f.id = i.form_id
           ${sql.join(conditions.map((condition) => sql`AND ${condition}`), sql` `)}
    RETURNING ${endsLink ? INVITE_COLUMNS_NEWEST_SEND : INVITE_COLUMNS}, f.name AS "formName"`;
}

/** The events of invites moved by `moveInvitesSql(move)`, one per row, in the caller's transaction. */
export function emitInviteMoves(tx: Tx, deps: EmitDeps, input: { move: InviteMove; invites: readonly InviteWithForm[]; failReason?: FailReason }): Promise<void> {
  const { move, invites, failReason } = input;
  return emitInviteEvents(tx, deps, { type: INVITE_TRANSITIONS[move].event, invites, failReason });
}

/**
 * Applies `move` to the invites `targets` names (see moveInvitesSql) and emits their events, in
 * the caller's transaction: the outbox. A move that ends the link also cancels their pending
 * messages and returns the units. Answers the invites moved (or, for a `keep` move, recorded).
 */
export async function moveInvites(tx: Tx, deps: EmitDeps, input: { move: InviteMove; targets: SQL; failReason?: FailReason }): Promise<InviteWithForm[]> {
  const { move, targets, failReason } = input;
  const now = deps.clock.now();
  const { rows } = await tx.execute<InviteWithForm>(moveInvitesSql(move, { targets, now }));
  if (rows.length === 0) return rows;
  if (INVITE_TRANSITIONS[move].endsLink) {
    const keys = (pick: (row: InviteWithForm) => string) => sqlArray('uuid', rows.map(pick));
    await cancelPendingMessages(tx, sql`(company_id, invite_id) IN (SELECT * FROM unnest(${keys((r) => r.companyId)}, ${keys((r) => r.id)}))`, now);
  }
  await emitInviteMoves(tx, deps, { move, invites: rows, failReason });
  return rows;
}

/** `targets` for one invite of the company. */
export function inviteOf(companyId: string, inviteId: string): SQL {
  return sql`(SELECT ${companyId}::uuid AS company_id, ${inviteId}::uuid AS invite_id)`;
}
