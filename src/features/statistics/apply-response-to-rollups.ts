import type { NoDeps } from '../../lib/service.js';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.js';
import type { ResolvedForm } from '../forms/definition/index.js';
import { responseCuts, responseFacts, type FactSource } from './response-facts.js';
import { monthOf } from './rollup-spans.js';
import { tallyKey } from './tally.js';

export interface RollupResponse extends FactSource {
  companyId: string;
  formId: string;
  dims: Record<string, string>;
  orgPath: string | null;
}

/** The UTC day a response counts on (its created_at), as the rollups and from/to see it. */
export const utcDay = (at: Date | string) => new Date(at).toISOString().slice(0, 10);

/**
 * Adds one response to the rollups of every cut it is in, for its UTC day and its month: one
 * INSERT .. ON CONFLICT of one row per cut and span, inside the caller's transaction. The
 * response's items become one tally in SQL (numeric, so the squares are exact), which
 * statistics_tally_add (migration 0520) merges into the stored one.
 */
export async function applyResponseToRollups(tx: DbOrTx, _deps: NoDeps, input: { form: ResolvedForm; response: RollupResponse }): Promise<void> {
  const { form, response } = input;
  const facts = responseFacts(form, response);
  const cuts = responseCuts(response.dims, response.orgPath);
  const day = utcDay(response.createdAt);
  const p = (values: unknown[]) => sql.param(values);
  await tx.execute(sql`
    INSERT INTO statistics_rollups AS r (company_id, form_id, cut_key, cut_value, span, day, responses, tally)
    SELECT ${response.companyId}::uuid, ${response.formId}::uuid, c.k, c.v, s.span, s.day::date, 1, t.tally
    FROM (SELECT jsonb_object_agg(k, CASE WHEN mn IS NULL THEN to_jsonb(n) ELSE jsonb_build_array(n, total, sq, mn, mx) END) AS tally
          FROM (SELECT k, count(*) AS n, coalesce(sum(x), 0) AS total, coalesce(sum(x * x), 0) AS sq, min(x) AS mn, max(x) AS mx
                FROM unnest(${p(facts.map((f) => tallyKey(f.questionId, f.questionType, f.item)))}::text[],
                            ${p(facts.map((f) => (f.value === null ? null : String(f.value))))}::numeric[]) AS f(k, x)
                GROUP BY k) items) t
    CROSS JOIN unnest(${p(cuts.map((c) => c.key))}::text[], ${p(cuts.map((c) => c.value))}::text[]) AS c(k, v)
    CROSS JOIN (VALUES ('day', ${day}), ('month', ${monthOf(day)})) AS s(span, day)
    ON CONFLICT (company_id, form_id, cut_key, cut_value, span, day) DO UPDATE SET
      responses = r.responses + excluded.responses,
      tally = statistics_tally_add(r.tally, excluded.tally)`);
}
