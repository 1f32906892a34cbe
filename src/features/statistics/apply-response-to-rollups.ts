import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.js';
import type { ResolvedForm } from '../forms/definition/index.js';
import { responseCuts, responseFacts, type FactSource } from './response-facts.js';

export interface RollupResponse extends FactSource {
  companyId: string;
  formId: string;
  dims: Record<string, string>;
  orgPath: string | null;
}

/** The UTC day a response counts on (its created_at), as the rollups and from/to see it. */
const utcDay = (at: Date | string) => new Date(at).toISOString().slice(0, 10);

/**
 * Adds (sign 1) or removes (sign -1) one response's facts to the rollups of every cut it is in:
 * one INSERT .. ON CONFLICT over the cuts × facts, inside the caller's transaction. Removal
 * leaves min/max as they were (a LEAST with NULL); deleteResponse recomputes them.
 */
export async function applyResponseToRollups(tx: DbOrTx, form: ResolvedForm, response: RollupResponse, sign: 1 | -1 = 1): Promise<void> {
  const facts = responseFacts(form, response);
  const cuts = responseCuts(response.dims, response.orgPath);
  const value = (v: number | null) => (v === null ? null : String(v));
  await tx.execute(sql`
    INSERT INTO statistics_rollups AS r
      (company_id, form_id, cut_key, cut_value, day, question_id, question_type, item, n, total, total_sq, min_value, max_value)
    SELECT ${response.companyId}::uuid, ${response.formId}::uuid, c.k, c.v, ${utcDay(response.createdAt)}::date, f.q, f.t, f.i,
           ${sign}, coalesce(f.x, 0) * ${sign}, coalesce(f.x * f.x, 0) * ${sign},
           CASE WHEN ${sign} > 0 THEN f.x END, CASE WHEN ${sign} > 0 THEN f.x END
    FROM unnest(${sql.param(cuts.map((c) => c.key))}::text[], ${sql.param(cuts.map((c) => c.value))}::text[]) AS c(k, v)
    CROSS JOIN unnest(${sql.param(facts.map((f) => f.questionId))}::text[], ${sql.param(facts.map((f) => f.questionType))}::text[],
                      ${sql.param(facts.map((f) => f.item))}::text[], ${sql.param(facts.map((f) => value(f.value)))}::numeric[]) AS f(q, t, i, x)
    ON CONFLICT (company_id, form_id, cut_key, cut_value, day, question_id, question_type, item) DO UPDATE SET
      n = r.n + excluded.n,
      total = r.total + excluded.total,
      total_sq = r.total_sq + excluded.total_sq,
      min_value = least(r.min_value, excluded.min_value),
      max_value = greatest(r.max_value, excluded.max_value)`);
}
