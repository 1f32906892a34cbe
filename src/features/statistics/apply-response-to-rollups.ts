import { sql } from 'drizzle-orm';
import { noDeps, type NoDeps } from '../../lib/service.js';
import type { DbOrTx } from '../../platform/db/database.js';
import { sqlArray } from '../../lib/sql-array.js';
import type { ResolvedForm } from '../forms/index.js';
import type { ResponseHandler } from '../responses/index.js';
import { responseCuts, responseFacts, type FactSource } from './response-facts.js';
import { tallyKey } from './tally.js';

export interface RollupResponse extends FactSource {
  id: string;
  companyId: string;
  formId: string;
  dims: Record<string, string>;
  orgPath: string | null;
}

/** The UTC day a response counts on (its created_at), as the rollups and from/to see it. */
export const utcDay = (at: Date | string) => new Date(at).toISOString().slice(0, 10);

/**
 * Adds one response to the rollups, inside the caller's transaction: one pending row (migration
 * 0540) with the response's items as one tally (built in SQL, numeric, so the squares are exact)
 * and the cuts it counts in. Readers see it at once (statistics_rollups_live); the fold sweep
 * (fold-pending-rollups.ts) merges it into its day and month rows later, with others of its form,
 * so no submission rewrites the cuts' large tallies.
 */
export async function applyResponseToRollups(tx: DbOrTx, _deps: NoDeps, input: { form: ResolvedForm; response: RollupResponse }): Promise<void> {
  const { form, response } = input;
  const facts = responseFacts(form, response);
  const cuts = responseCuts(response.dims, response.orgPath);
  await tx.execute(sql`
    INSERT INTO statistics_rollup_pending (company_id, form_id, response_id, day, cut_keys, cut_values, tally)
    SELECT ${response.companyId}::uuid, ${response.formId}::uuid, ${response.id}::uuid, ${utcDay(response.createdAt)}::date,
           ${sqlArray('text', cuts.map((c) => c.key))}, ${sqlArray('text', cuts.map((c) => c.value))}, t.tally
    FROM (SELECT jsonb_object_agg(k, CASE WHEN mn IS NULL THEN to_jsonb(n) ELSE jsonb_build_array(n, total, sq, mn, mx) END) AS tally
          FROM (SELECT k, count(*) AS n, coalesce(sum(x), 0) AS total, coalesce(sum(x * x), 0) AS sq, min(x) AS mn, max(x) AS mx
                FROM unnest(${sqlArray('text', facts.map((f) => tallyKey(f.questionId, f.questionType, f.item)))},
                            ${sqlArray('numeric', facts.map((f) => (f.value === null ? null : String(f.value))))}) AS f(k, x)
                GROUP BY k) items) t`);
}

/** Statistics as a response consumer: every new response counts in its form's rollups, in its own transaction. */
export const rollupsConsumer: ResponseHandler = {
  onResponse: (tx, _deps, response, form) => applyResponseToRollups(tx, noDeps, { form: form.content, response }),
};
