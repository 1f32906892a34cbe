import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.js';
import type { ResolvedForm } from '../forms/definition/index.js';
import { responseCuts, responseFacts, type FactSource } from './response-facts.js';
import { addFacts, type Tally } from './tally.js';

type DayRow = FactSource & { dims: Record<string, string>; orgPath: string | null };

/**
 * Recomputes the rollups of one form and UTC day from its responses, read with the form as it is
 * now: what a deletion needs (min and max cannot be subtracted). Set-wise: one read, one delete,
 * one insert. Callers hold the form row lock (the response-count trigger takes it when a response
 * is inserted or deleted), so no recordResponse of the form interleaves.
 */
export async function rebuildRollupsOfDay(tx: DbOrTx, companyId: string, formId: string, form: ResolvedForm, day: string): Promise<void> {
  const { rows } = await tx.execute<DayRow>(sql`
    SELECT answers, dims, org_path AS "orgPath", created_at AS "createdAt", completed_at AS "completedAt"
    FROM responses
    WHERE company_id = ${companyId} AND form_id = ${formId}
      AND created_at >= (${day}::date::timestamp AT TIME ZONE 'UTC') AND created_at < ((${day}::date + 1)::timestamp AT TIME ZONE 'UTC')`);
  const byCut = new Map<string, Tally>();
  for (const row of rows) {
    const facts = responseFacts(form, row);
    for (const cut of responseCuts(row.dims, row.orgPath)) {
      const key = `${cut.key}\u0000${cut.value}`;
      let tally = byCut.get(key);
      if (!tally) byCut.set(key, (tally = new Map()));
      addFacts(tally, facts);
    }
  }
  const columns = { k: [] as string[], v: [] as string[], q: [] as string[], t: [] as string[], i: [] as string[], n: [] as number[], total: [] as number[], sq: [] as number[], min: [] as (number | null)[], max: [] as (number | null)[] };
  for (const [cut, tally] of byCut) {
    const [k, v] = cut.split('\u0000');
    for (const [item, counter] of tally) {
      const [q, t, ...rest] = item.split('|');
      columns.k.push(k);
      columns.v.push(v);
      columns.q.push(q);
      columns.t.push(t);
      columns.i.push(rest.join('|'));
      columns.n.push(counter.n);
      columns.total.push(counter.total);
      columns.sq.push(counter.totalSq);
      columns.min.push(counter.min);
      columns.max.push(counter.max);
    }
  }
  await tx.execute(sql`DELETE FROM statistics_rollups WHERE company_id = ${companyId} AND form_id = ${formId} AND day = ${day}::date`);
  if (columns.k.length === 0) return;
  const p = (values: unknown[]) => sql.param(values);
  await tx.execute(sql`
    INSERT INTO statistics_rollups
      (company_id, form_id, cut_key, cut_value, day, question_id, question_type, item, n, total, total_sq, min_value, max_value)
    SELECT ${companyId}::uuid, ${formId}::uuid, k, v, ${day}::date, q, t, i, n, total, sq, mn, mx
    FROM unnest(${p(columns.k)}::text[], ${p(columns.v)}::text[], ${p(columns.q)}::text[], ${p(columns.t)}::text[], ${p(columns.i)}::text[],
                ${p(columns.n)}::int8[], ${p(columns.total)}::numeric[], ${p(columns.sq)}::numeric[], ${p(columns.min)}::numeric[],
                ${p(columns.max)}::numeric[]) AS x(k, v, q, t, i, n, total, sq, mn, mx)`);
}

/** Every day of a form, a day at a time: for bulk loads (the demo, the bench) that defer the rollups. */
export async function rebuildRollupsOfForm(tx: DbOrTx, companyId: string, formId: string, form: ResolvedForm): Promise<void> {
  const { rows } = await tx.execute<{ day: string }>(sql`
    SELECT DISTINCT (created_at AT TIME ZONE 'UTC')::date::text AS day FROM responses WHERE company_id = ${companyId} AND form_id = ${formId}`);
  for (const { day } of rows) await rebuildRollupsOfDay(tx, companyId, formId, form, day);
}
