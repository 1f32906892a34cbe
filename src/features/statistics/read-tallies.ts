import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database.js';
import type { ResolvedForm } from '../forms/index.js';
import { filterSql, type ResponseFilter } from '../responses/index.js';
import { responseCuts, responseFacts } from './response-facts.js';
import { spanCondition } from '../rollups/index.js';
import { addCounter, addFacts, type Tally } from './tally.js';

export interface RollupCut {
  companyId: string;
  formId: string;
  cutKey: string;
  /** one value of the cut key; all of them when absent (a grouped report) */
  cutValue?: string;
  from?: string;
  to?: string;
}

type RollupRow = {
  cutValue: string;
  key: string;
  n: number;
  total: number;
  totalSq: number;
  min: number | null;
  max: number | null;
};

/**
 * Tallies per cut value, summed over the rows covering [from, to] (month rows for whole months,
 * day rows for the rest: spanCondition), the responses not yet folded included (the live view,
 * migration 0540), in one statement (one snapshot). Sums are numeric, so exact until the final
 * float8.
 */
export async function rollupTallies(db: DbOrTx, cut: RollupCut): Promise<Map<string, Tally>> {
  const { rows } = await db.execute<RollupRow>(sql`
    SELECT "cutValue", key, n::int8 AS n, total::float8 AS total, "totalSq"::float8 AS "totalSq", min::float8 AS min, max::float8 AS max
    FROM (
      SELECT r.cut_value AS "cutValue", e.key,
             sum(CASE WHEN jsonb_typeof(e.value) = 'number' THEN e.value::numeric ELSE (e.value ->> 0)::numeric END) AS n,
             coalesce(sum((e.value ->> 1)::numeric), 0) AS total, coalesce(sum((e.value ->> 2)::numeric), 0) AS "totalSq",
             min((e.value ->> 3)::numeric) AS min, max((e.value ->> 4)::numeric) AS max
      FROM statistics_rollups_live r CROSS JOIN jsonb_each(r.tally) e
      WHERE r.company_id = ${cut.companyId} AND r.form_id = ${cut.formId} AND r.cut_key = ${cut.cutKey}
        ${cut.cutValue === undefined ? sql`` : sql`AND r.cut_value = ${cut.cutValue}`}
        AND ${spanCondition(cut.from, cut.to)}
      GROUP BY 1, 2) items
    WHERE n <> 0`);
  const tallies = new Map<string, Tally>();
  for (const row of rows) {
    let tally = tallies.get(row.cutValue);
    if (!tally) tallies.set(row.cutValue, (tally = new Map()));
    addCounter(tally, row.key, row);
  }
  return tallies;
}

export interface ScanResult {
  /** cut key → cut value → tally */
  tallies: Map<string, Map<string, Tally>>;
  scanned: number;
  truncated: boolean;
}

type ScanRow = {
  answers: Record<string, unknown>;
  dims: Record<string, string>;
  orgPath: string | null;
  createdAt: Date;
  completedAt: Date | null;
};

/**
 * For cuts the rollups do not hold (several dims, a dim with another grouping): the newest
 * `ceiling` matching responses, turned into the same facts as the rollups, per value of each
 * of cutKeys ('' gives the whole filtered cut).
 */
export async function scanTallies(db: DbOrTx, form: ResolvedForm, filter: ResponseFilter, cutKeys: string[], ceiling: number): Promise<ScanResult> {
  const { rows } = await db.execute<ScanRow>(sql`
    SELECT r.answers, r.dims, r.org_path AS "orgPath", r.created_at AS "createdAt", r.completed_at AS "completedAt"
    FROM responses r
    WHERE ${filterSql(filter)}
    ORDER BY r.created_at DESC, r.id DESC
    LIMIT ${ceiling + 1}`);
  const scanned = Math.min(rows.length, ceiling);
  const tallies = new Map(cutKeys.map((key) => [key, new Map<string, Tally>()]));
  for (const row of rows.slice(0, scanned)) {
    const facts = responseFacts(form, row);
    for (const cut of responseCuts(row.dims, row.orgPath)) {
      const byValue = tallies.get(cut.key);
      if (!byValue) continue;
      let tally = byValue.get(cut.value);
      if (!tally) byValue.set(cut.value, (tally = new Map()));
      addFacts(tally, facts);
    }
  }
  return { tallies, scanned, truncated: rows.length > ceiling };
}
