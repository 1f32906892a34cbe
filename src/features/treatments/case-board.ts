import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database.js';
import type { NoDeps } from '../../lib/service.js';

export type BoardRow = {
  formId: string;
  formName: string;
  flowKey: string;
  flowName: string;
  open: number;
  overdue: number;
  closed: number;
};

/**
 * The treatment board: the company's cases counted by form and flow, open (of which overdue, as
 * the API's `overdue`) and closed. A flow removed from its form keeps its key as its name.
 */
export async function caseBoard(db: DbOrTx, _deps: NoDeps, input: { companyId: string }): Promise<BoardRow[]> {
  const { rows } = await db.execute<BoardRow>(sql`
    SELECT t.form_id AS "formId", f.name AS "formName", t.flow_key AS "flowKey", coalesce(fl.name, t.flow_key) AS "flowName",
           count(*) FILTER (WHERE t.status = 'open')::int AS open,
           count(*) FILTER (WHERE t.status = 'open' AND t.overdue_notified_at IS NOT NULL)::int AS overdue,
           count(*) FILTER (WHERE t.status = 'closed')::int AS closed
      FROM treatments t
      JOIN forms f ON f.company_id = t.company_id AND f.id = t.form_id
      LEFT JOIN treatment_flows fl ON fl.company_id = t.company_id AND fl.form_id = t.form_id AND fl.key = t.flow_key
     WHERE t.company_id = ${input.companyId}
     GROUP BY t.form_id, f.name, t.flow_key, fl.name
     ORDER BY f.name, t.form_id, t.flow_key`);
  return rows;
}
