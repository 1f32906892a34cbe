import { sql } from 'drizzle-orm';
import type { NoDeps } from '../../lib/service.js';
import type { DbOrTx } from '../../platform/db/database.js';
import { isoTimestamp } from '../../platform/db/iso-timestamp.js';

export interface ClassGroupItem {
  id: string;
  code: string;
  name: string;
  startsOn: string | null;
  endsOn: string | null;
  classCount: number;
  createdAt: string;
  updatedAt: string;
}

/**
 * One page of the company's class groups, newest first (createdAt desc, id desc), with their
 * total riding on the rows (a window count) and the anchor row keeping it on an empty page.
 */
export async function listClassGroups(db: DbOrTx, _deps: NoDeps, input: { companyId: string } & { page: number; limit: number }) {
  const { companyId, page, limit } = input;
  const { rows } = await db.execute<{ total: number; item: ClassGroupItem | null }>(sql`
    SELECT n.total, g.item FROM (SELECT count(*)::int AS total FROM class_groups WHERE company_id = ${companyId}) AS n
    LEFT JOIN LATERAL (
      SELECT json_build_object(
               'id', g.id, 'code', g.code, 'name', g.name, 'startsOn', g.starts_on, 'endsOn', g.ends_on,
               'classCount', (SELECT count(*)::int FROM classes c WHERE c.company_id = g.company_id AND c.class_group_id = g.id),
               'createdAt', ${isoTimestamp(sql`g.created_at`)},
               'updatedAt', ${isoTimestamp(sql`g.updated_at`)}) AS item, g.created_at, g.id
        FROM class_groups g
       WHERE g.company_id = ${companyId}
       ORDER BY g.created_at DESC, g.id DESC
       LIMIT ${limit} OFFSET ${(page - 1) * limit}
    ) AS g ON true
    ORDER BY g.created_at DESC, g.id DESC`);
  return { items: rows.flatMap((row) => (row.item ? [row.item] : [])), total: rows[0].total };
}
