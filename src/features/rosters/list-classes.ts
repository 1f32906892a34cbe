import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database.js';
import { isUuid } from '../../lib/ids.js';
import type { NoDeps } from '../../lib/service.js';

export type ClassItem = {
  id: string;
  code: string;
  name: string;
  classGroup: { id: string; code: string; name: string } | null;
  course: { id: string; code: string; name: string };
  orgUnit: { id: string; code: string; name: string };
  enrolled: number;
  completed: number;
  dropped: number;
};

/**
 * One page of the company's classes by code, with their group, course and unit named and their
 * enrollments counted by status; optionally of one class group only (the panel's Classes tab).
 */
export async function listClasses(db: DbOrTx, _deps: NoDeps, input: { companyId: string; page: number; limit: number; classGroupId?: string }) {
  const { companyId, page, limit, classGroupId } = input;
  if (classGroupId !== undefined && !isUuid(classGroupId)) return { items: [], total: 0 };
  const inGroup = classGroupId ? sql`AND c.class_group_id = ${classGroupId}::uuid` : sql``;
  const [{ rows: count }, { rows }] = await Promise.all([
    db.execute<{ total: number }>(sql`SELECT count(*)::int AS total FROM classes c WHERE c.company_id = ${companyId} ${inGroup}`),
    db.execute<ClassItem>(sql`
      SELECT c.id, c.code, c.name,
             CASE WHEN g.id IS NULL THEN NULL ELSE json_build_object('id', g.id, 'code', g.code, 'name', g.name) END AS "classGroup",
             json_build_object('id', co.id, 'code', co.code, 'name', co.name) AS course,
             json_build_object('id', u.id, 'code', u.code, 'name', u.name) AS "orgUnit",
             coalesce(e.enrolled, 0) AS enrolled, coalesce(e.completed, 0) AS completed, coalesce(e.dropped, 0) AS dropped
        FROM classes c
        LEFT JOIN class_groups g ON g.company_id = c.company_id AND g.id = c.class_group_id
        JOIN entities co ON co.company_id = c.company_id AND co.id = c.course_item_id
        JOIN entities u ON u.company_id = c.company_id AND u.id = c.org_unit_id
        LEFT JOIN LATERAL (
          SELECT count(*) FILTER (WHERE status = 'enrolled')::int AS enrolled, count(*) FILTER (WHERE status = 'completed')::int AS completed,
                 count(*) FILTER (WHERE status = 'dropped')::int AS dropped
            FROM enrollments WHERE company_id = c.company_id AND class_id = c.id) AS e ON true
       WHERE c.company_id = ${companyId} ${inGroup}
       ORDER BY c.code
       LIMIT ${limit} OFFSET ${(page - 1) * limit}`),
  ]);
  return { items: rows, total: count[0].total };
}
