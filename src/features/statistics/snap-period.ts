import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database.js';

const DAY_MS = 86_400_000;
const dayBefore = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) - DAY_MS).toISOString().slice(0, 10);

export interface Period {
  from?: string;
  to?: string;
}

/**
 * For anonymous forms: widens from/to to whole blocks of days, each block holding at least
 * `floor` responses (greedy from the first day; a short last block joins the one before). Two
 * periods then differ by whole blocks, so subtracting one's figures from the other's never
 * isolates fewer than `floor` authors. An open end stays open.
 */
export async function snapPeriod(db: DbOrTx, companyId: string, formId: string, floor: number, period: Period): Promise<Period> {
  if (!period.from && !period.to) return {};
  const { rows } = await db.execute<{ day: string; n: number }>(sql`
    SELECT day::text AS day, sum(responses)::int8 AS n FROM statistics_rollups_live
    WHERE company_id = ${companyId} AND form_id = ${formId} AND cut_key = '' AND cut_value = '' AND span = 'day'
    GROUP BY day HAVING sum(responses) > 0
    ORDER BY day`);
  const starts: string[] = [];
  let filled = floor;
  for (const row of rows) {
    if (filled >= floor) {
      starts.push(row.day);
      filled = 0;
    }
    filled += row.n;
  }
  if (filled < floor && starts.length > 1) starts.pop();
  if (starts.length === 0) return {};
  const blockOf = (day: string) => Math.max(0, starts.filter((start) => start <= day).length - 1);
  const from = period.from ? blockOf(period.from) : 0;
  const to = period.to ? blockOf(period.to) : starts.length - 1;
  return { from: from === 0 ? undefined : starts[from], to: to === starts.length - 1 ? undefined : dayBefore(starts[to + 1]) };
}
