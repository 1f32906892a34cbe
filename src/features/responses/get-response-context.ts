import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database.js';
import type { NoDeps } from '../../lib/service.js';
import { getResponse } from './get-response.js';
import { isoTimestamp } from '../../platform/db/iso-timestamp.js';

type InviteSummary = {
  id: string;
  status: string;
  name: string | null;
  email: string | null;
  phone: string | null;
  externalId: string | null;
  createdAt: string;
};

type CaseSummary = {
  id: string;
  number: number;
  flowKey: string;
  status: string;
  stepName: string | null;
  dueAt: string | null;
  outcome: string | null;
  openedAt: string;
};

/**
 * One response as the panel's response page shows it: the full record, the invite it came from
 * and the treatment cases it opened. The invite and the cases are read here by their tables
 * (company-scoped) rather than through the invites and treatments features, which import this
 * one: going through them would make a loop of features.
 */
export async function getResponseContext(db: DbOrTx, deps: NoDeps, input: { companyId: string; id: string }) {
  const response = await getResponse(db, deps, input);
  const { companyId } = input;
  const invite = response.inviteId
    ? ((
        await db.execute<InviteSummary>(sql`
          SELECT id, status, name, email, phone, external_id AS "externalId",
                 ${isoTimestamp(sql`created_at`)} AS "createdAt"
          FROM invites WHERE company_id = ${companyId} AND id = ${response.inviteId}`)
      ).rows[0] ?? null)
    : null;
  const { rows: cases } = await db.execute<CaseSummary>(sql`
    SELECT id, number, flow_key AS "flowKey", status, steps -> step_index ->> 'name' AS "stepName", outcome,
           ${isoTimestamp(sql`step_due_at`)} AS "dueAt",
           ${isoTimestamp(sql`opened_at`)} AS "openedAt"
    FROM treatments WHERE company_id = ${companyId} AND response_id = ${response.id} ORDER BY number`);
  return { response, invite, cases };
}
