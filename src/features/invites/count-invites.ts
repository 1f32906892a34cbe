import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database.js';
import { notFound } from '../../lib/errors.js';
import { isUuid } from '../../lib/ids.js';
import { INVITE_STATUS } from './invite-view.js';
import { FINAL_STATUSES } from './lifecycle/transitions.js';
import { INVITE_STATUSES, type InviteStatus } from './schemas.js';

/**
 * How many of a form's invites show each effectiveStatus (expired once expiresAt has passed,
 * unless final; otherwise the stored status, queued read from the messages), every status present.
 */
export async function countInvites(db: DbOrTx, deps: { now: Date }, input: { companyId: string; formId: string }): Promise<Record<InviteStatus, number>> {
  const { companyId, formId } = input;
  if (!isUuid(formId)) throw notFound('Form');
  const final = sql.raw(FINAL_STATUSES.map((status) => `'${status}'`).join(', '));
  const { rows } = await db.execute<{ status: InviteStatus | null; n: number }>(sql`
    SELECT c.status, c.n FROM forms f
      LEFT JOIN LATERAL (
        SELECT CASE WHEN i.expires_at <= ${deps.now} AND i.status NOT IN (${final}) THEN 'expired' ELSE ${INVITE_STATUS} END AS status, count(*)::int AS n
          FROM invites i WHERE i.company_id = ${companyId} AND i.form_id = ${formId}
         GROUP BY 1) c ON true
     WHERE f.company_id = ${companyId} AND f.id = ${formId}`);
  if (rows.length === 0) throw notFound('Form');
  const counts = Object.fromEntries(INVITE_STATUSES.map((status) => [status, 0])) as Record<InviteStatus, number>;
  for (const row of rows) if (row.status !== null) counts[row.status] += row.n;
  return counts;
}
