import { sql } from 'drizzle-orm';
import type { NoDeps } from '../../lib/service.js';
import type { DbOrTx } from '../../platform/db/database.js';
import { sqlArray } from '../../lib/sql-array.js';
import type { ResolvedForm } from '../forms/index.js';
import { lockFormRollups } from './lock-form-rollups.js';
import { responseCuts, responseFacts, type FactSource } from './response-facts.js';
import { monthOf } from '../rollups/index.js';
import { addFacts, counterOf, storedTally, type Tally } from './tally.js';

type DayRow = FactSource & { dims: Record<string, string>; orgPath: string | null };

/** Writes the day rows of one form and UTC day from its responses (none there before): one read, one insert. */
async function writeDay(tx: DbOrTx, companyId: string, formId: string, form: ResolvedForm, day: string): Promise<void> {
  const { rows } = await tx.execute<DayRow>(sql`
    SELECT answers, dims, org_path AS "orgPath", created_at AS "createdAt", completed_at AS "completedAt"
    FROM responses
    WHERE company_id = ${companyId} AND form_id = ${formId}
      AND created_at >= (${day}::date::timestamp AT TIME ZONE 'UTC') AND created_at < ((${day}::date + 1)::timestamp AT TIME ZONE 'UTC')`);
  const byCut = new Map<string, { key: string; value: string; tally: Tally }>();
  for (const row of rows) {
    const facts = responseFacts(form, row);
    for (const cut of responseCuts(row.dims, row.orgPath)) {
      const id = `${cut.key}\u0000${cut.value}`;
      let entry = byCut.get(id);
      if (!entry) byCut.set(id, (entry = { ...cut, tally: new Map() }));
      addFacts(entry.tally, facts);
    }
  }
  if (byCut.size === 0) return;
  const cuts = [...byCut.values()];
  await tx.execute(sql`
    INSERT INTO statistics_rollups (company_id, form_id, cut_key, cut_value, span, day, responses, tally)
    SELECT ${companyId}::uuid, ${formId}::uuid, k, v, 'day', ${day}::date, n, tally
    FROM unnest(${sqlArray('text', cuts.map((c) => c.key))}, ${sqlArray('text', cuts.map((c) => c.value))},
                ${sqlArray('int8', cuts.map((c) => counterOf(c.tally, '', '', 'responses')?.n ?? 0))},
                ${sqlArray('jsonb', cuts.map((c) => JSON.stringify(storedTally(c.tally))))}) AS x(k, v, n, tally)`);
}

/** Sums the month rows of [fromMonth, toMonth] (first days, open as ±infinity) from their day rows. */
async function rollMonths(tx: DbOrTx, companyId: string, formId: string, fromMonth: string, toMonth: string): Promise<void> {
  await tx.execute(sql`SELECT statistics_rollups_roll_months(${companyId}::uuid, ${formId}::uuid, ${fromMonth}::date, ${toMonth}::date)`);
}

/**
 * Recomputes the rollups of one form and UTC day from its responses, read with the form as it is
 * now, then its month from its days: what a deletion needs (min and max cannot be subtracted).
 * The day's pending rows (migration 0540) go: its day rows now count those responses. Callers
 * hold the form row lock (the response-count trigger takes it when a response is inserted or
 * deleted), so no recordResponse or fold of the form interleaves.
 */
export async function rebuildRollupsOfDay(tx: DbOrTx, companyId: string, formId: string, form: ResolvedForm, day: string): Promise<void> {
  await tx.execute(sql`DELETE FROM statistics_rollup_pending WHERE company_id = ${companyId} AND form_id = ${formId} AND day = ${day}::date`);
  await tx.execute(sql`DELETE FROM statistics_rollups WHERE company_id = ${companyId} AND form_id = ${formId} AND span = 'day' AND day = ${day}::date`);
  await writeDay(tx, companyId, formId, form, day);
  await rollMonths(tx, companyId, formId, monthOf(day), monthOf(day));
}

/** Every day of a form, a day at a time, then every month: for bulk loads (the demo, the bench) that defer the rollups. */
export async function rebuildRollupsOfForm(tx: DbOrTx, _deps: NoDeps, input: { companyId: string; formId: string; form: ResolvedForm }): Promise<void> {
  const { companyId, formId, form } = input;
  await lockFormRollups(tx, companyId, formId);
  await tx.execute(sql`DELETE FROM statistics_rollup_pending WHERE company_id = ${companyId} AND form_id = ${formId}`);
  await tx.execute(sql`DELETE FROM statistics_rollups WHERE company_id = ${companyId} AND form_id = ${formId}`);
  const { rows } = await tx.execute<{ day: string }>(sql`
    SELECT DISTINCT (created_at AT TIME ZONE 'UTC')::date::text AS day FROM responses WHERE company_id = ${companyId} AND form_id = ${formId}`);
  for (const { day } of rows) await writeDay(tx, companyId, formId, form, day);
  await rollMonths(tx, companyId, formId, '-infinity', 'infinity');
}
