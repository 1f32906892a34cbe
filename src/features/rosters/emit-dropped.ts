import { sql } from 'drizzle-orm';
import type { Tx } from '../../platform/db/database.js';
import { sqlArray } from '../../lib/sql-array.js';
import { enrollmentDroppedData, type EnrollmentDroppedInput } from '../events/index.js';
import { emitEvents, type EmitDeps } from '../events/index.js';
import type { EnrollmentChange } from './apply-enrollments.js';

/**
 * enrollment.dropped for each enrollment that moved from enrolled or completed to dropped, in the
 * caller's transaction. An enrollment first seen as dropped had no other status to leave: no event.
 */
export async function emitDropped(tx: Tx, deps: EmitDeps, companyId: string, changes: readonly EnrollmentChange[]): Promise<number> {
  const drops = changes.filter((c) => c.toStatus === 'dropped' && (c.fromStatus === 'enrolled' || c.fromStatus === 'completed'));
  if (drops.length === 0) return 0;
  const { rows } = await tx.execute<Omit<EnrollmentDroppedInput, 'previousStatus'>>(sql`
    SELECT e.id AS "enrollmentId", c.id AS "classId", p.id AS "personId", c.code AS "classCode", c.name AS "className",
           p.external_id AS "externalId", p.name, p.email, p.phone, c.course_item_id AS "courseItemId", c.org_unit_id AS "orgUnitId",
           e.status_changed_at AS "changedAt"
      FROM enrollments e
      JOIN people p ON p.company_id = e.company_id AND p.id = e.person_id
      JOIN classes c ON c.company_id = e.company_id AND c.id = e.class_id
     WHERE e.company_id = ${companyId} AND e.id IN (SELECT unnest(${sqlArray('uuid', drops.map((d) => d.enrollmentId))}))
     ORDER BY e.id`);
  const previous = new Map(drops.map((d) => [d.enrollmentId, d.fromStatus as 'enrolled' | 'completed']));
  const data = rows.map((row) => enrollmentDroppedData({ ...row, changedAt: new Date(row.changedAt), previousStatus: previous.get(row.enrollmentId)! }));
  return emitEvents(tx, deps, { companyId, type: 'enrollment.dropped', data });
}
