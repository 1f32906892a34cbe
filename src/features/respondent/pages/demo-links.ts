import { sql } from 'drizzle-orm';
import type { NoDeps } from '../../../lib/service.js';
import type { DbOrTx } from '../../../platform/db/database.js';
import { DEMO_INVITE_FORM } from '../../invites/index.js';

export interface DemoLinks {
  /** the public link of the demo's invite form (it is public) */
  publicLink: string;
  /** a personal link that still answers: an open invite of that form, a sent one first; null once all are used */
  personalLink: string | null;
}

/** The two links the start-up banner prints, so a newcomer can answer a form in the browser at once. */
export async function demoLinks(db: DbOrTx, _deps: NoDeps, input: { company: { id: string; slug: string }; urls: { origin: string; formUrl: string }; now: Date }): Promise<DemoLinks> {
  const { company, urls, now } = input;
  const { rows } = await db.execute<{ token: string }>(sql`
    SELECT i.token FROM invites i JOIN forms f ON f.id = i.form_id
    WHERE i.company_id = ${company.id} AND f.slug = ${DEMO_INVITE_FORM}
      AND i.status NOT IN ('responded', 'revoked', 'expired', 'failed') AND (i.expires_at IS NULL OR i.expires_at > ${now})
    ORDER BY (i.status = 'sent') DESC, i.external_id LIMIT 1`);
  return {
    publicLink: `${urls.origin}/f/${encodeURIComponent(company.slug)}/${DEMO_INVITE_FORM}`,
    personalLink: rows[0] ? `${urls.formUrl}/${rows[0].token}` : null,
  };
}
