import { and, asc, eq, sql } from 'drizzle-orm';
import { parseDay } from '../../lib/date-time.js';
import type { NoDeps } from '../../lib/service.js';
import type { DbOrTx, Tx } from '../../platform/db/database.js';
import { ApiError, validationError } from '../../lib/errors.js';
import { companyHolidays, treatments } from './table.js';
import { loadWorkingCalendar, workingDeadline } from './working-days.js';

function checkedDay(day: string): string {
  if (parseDay(day) === null) throw validationError([{ path: 'day', code: 'invalid_format', message: 'must be a date YYYY-MM-DD' }]);
  return day;
}

/**
 * Recomputes the deadline of every open step of the company from when it started counting, after
 * its calendar changed: one UPDATE over the new deadlines (unnest), in the caller's transaction.
 */
export async function recomputeOpenDeadlines(tx: Tx, _deps: NoDeps, input: { companyId: string }): Promise<number> {
  const { companyId } = input;
  const open = await tx
    .select({ id: treatments.id, steps: treatments.steps, stepIndex: treatments.stepIndex, stepStartedAt: treatments.stepStartedAt })
    .from(treatments)
    .where(and(eq(treatments.companyId, companyId), eq(treatments.status, 'open')))
    .for('update');
  if (open.length === 0) return 0;
  const calendar = await loadWorkingCalendar(tx, companyId);
  const dues = open.map((c) => ({ id: c.id, due: workingDeadline(calendar, c.stepStartedAt, c.steps[c.stepIndex].dueInWorkingDays).toISOString() }));
  const result = await tx.execute(sql`UPDATE treatments t SET step_due_at = d.due
    FROM jsonb_to_recordset(${JSON.stringify(dues)}::jsonb) AS d(id uuid, due timestamptz)
    WHERE t.id = d.id AND t.step_due_at IS DISTINCT FROM d.due`);
  return result.rowCount ?? 0;
}

/** Adds (or renames) a company holiday; open steps' deadlines move in the same transaction. */
export async function addHoliday(db: DbOrTx, deps: NoDeps, input: { companyId: string; day: string; name: string }) {
  const name = input.name.trim();
  if (name === '' || name.length > 200) throw validationError([{ path: 'name', code: 'invalid_value', message: 'must be 1 to 200 characters' }]);
  const day = checkedDay(input.day);
  return db.transaction(async (tx) => {
    await tx
      .insert(companyHolidays)
      .values({ companyId: input.companyId, day, name })
      .onConflictDoUpdate({ target: [companyHolidays.companyId, companyHolidays.day], set: { name } });
    return { day, name, movedDeadlines: await recomputeOpenDeadlines(tx, deps, { companyId: input.companyId }) };
  });
}

export async function removeHoliday(db: DbOrTx, deps: NoDeps, input: { companyId: string; day: string }) {
  const day = checkedDay(input.day);
  return db.transaction(async (tx) => {
    const removed = await tx
      .delete(companyHolidays)
      .where(and(eq(companyHolidays.companyId, input.companyId), eq(companyHolidays.day, day)))
      .returning();
    if (removed.length === 0) throw new ApiError('NOT_FOUND', `The company has no holiday on ${day}.`);
    return { day, movedDeadlines: await recomputeOpenDeadlines(tx, deps, { companyId: input.companyId }) };
  });
}

export function listHolidays(db: DbOrTx, _deps: NoDeps, input: { companyId: string }) {
  const { companyId } = input;
  return db.select({ day: companyHolidays.day, name: companyHolidays.name }).from(companyHolidays).where(eq(companyHolidays.companyId, companyId)).orderBy(asc(companyHolidays.day));
}
