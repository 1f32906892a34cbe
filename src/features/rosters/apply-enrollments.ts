import { sql } from 'drizzle-orm';
import type { Tx } from '../../platform/db/database.js';
import type { IdGenerator } from '../../lib/ids.js';
import type { EnrollmentInput } from './parse-roster.js';
import type { EnrollmentStatus } from './table.js';
import { textSet } from './text-set.js';

/** One enrollment that changed: created, moved to another status, or dropped by a sync. */
export type EnrollmentChange = {
  enrollmentId: string;
  externalId: string;
  classCode: string;
  fromStatus: EnrollmentStatus | null;
  toStatus: EnrollmentStatus;
  action: 'created' | 'updated' | 'dropped';
};

export interface ApplyEnrollmentsInput {
  stamp: Date;
  operationId: string;
  /** Checked rows: their person and class exist. */
  rows: EnrollmentInput[];
  /** sync: the classes whose active enrollments the payload leaves out are dropped; null for upsert. */
  syncClasses: string[] | null;
  /** (externalId, classCode) pairs any enrollment row names: never dropped by the sync. */
  mentioned: Array<[string, string]>;
}

/**
 * Every enrollment change of an import in one statement: status updates where the stored status
 * differs, creations, the sync's drops, and one history row per change stamped with the
 * operation. The unique (company, person, class) key makes a concurrent creation a no-op, never
 * a second enrollment.
 */
export async function applyEnrollments(tx: Tx, deps: { newId: IdGenerator }, companyId: string, input: ApplyEnrollmentsInput): Promise<EnrollmentChange[]> {
  const stamp = input.stamp.toISOString();
  const rows = JSON.stringify(input.rows.map((r) => ({ id: deps.newId(), externalId: r.externalId, classCode: r.classCode, status: r.status })));
  const syncDrops = input.syncClasses
    ? sql`UPDATE enrollments e SET status = 'dropped', status_changed_at = ${stamp}::timestamptz
          FROM (SELECT e2.id, e2.status AS old, p.external_id, c.code
                  FROM classes c
                  JOIN enrollments e2 ON e2.company_id = c.company_id AND e2.class_id = c.id AND e2.status IN ('enrolled', 'completed')
                  JOIN people p ON p.company_id = e2.company_id AND p.id = e2.person_id
                 WHERE c.company_id = ${companyId} AND c.code IN ${textSet(input.syncClasses)}
                   AND NOT EXISTS (SELECT 1 FROM mentioned m WHERE m.external_id = p.external_id AND m.code = c.code)) AS d
         WHERE e.company_id = ${companyId} AND e.id = d.id
        RETURNING e.id, d.external_id, d.code, d.old AS from_status, e.status AS to_status, 'dropped' AS action`
    : sql`SELECT NULL::uuid AS id, NULL::text AS external_id, NULL::text AS code, NULL::text AS from_status, NULL::text AS to_status, NULL::text AS action WHERE false`;
  const { rows: changes } = await tx.execute<EnrollmentChange>(sql`
    WITH v AS (
      SELECT (r->>'id')::uuid AS id, r->>'externalId' AS external_id, r->>'classCode' AS code, r->>'status' AS status
        FROM jsonb_array_elements(${rows}::jsonb) AS r
    ), mentioned AS (
      SELECT m->>0 AS external_id, m->>1 AS code FROM jsonb_array_elements(${JSON.stringify(input.mentioned)}::jsonb) AS m
    ), cur AS (
      SELECT v.*, p.id AS person_id, c.id AS class_id, e.id AS stored_id, e.status AS stored_status
        FROM v
        JOIN people p ON p.company_id = ${companyId} AND p.external_id = v.external_id
        JOIN classes c ON c.company_id = ${companyId} AND c.code = v.code
        LEFT JOIN enrollments e ON e.company_id = ${companyId} AND e.person_id = p.id AND e.class_id = c.id
    ), updated AS (
      UPDATE enrollments e SET status = cur.status, status_changed_at = ${stamp}::timestamptz
        FROM cur
       WHERE e.company_id = ${companyId} AND e.id = cur.stored_id AND e.status <> cur.status
      RETURNING e.id, cur.external_id, cur.code, cur.stored_status AS from_status, e.status AS to_status, 'updated' AS action
    ), inserted AS (
      INSERT INTO enrollments (id, company_id, person_id, class_id, status, status_changed_at, created_at)
      SELECT id, ${companyId}, person_id, class_id, status, ${stamp}::timestamptz, ${stamp}::timestamptz FROM cur WHERE stored_id IS NULL
      ON CONFLICT (company_id, person_id, class_id) DO NOTHING
      RETURNING id, person_id, class_id, status
    ), dropped AS (${syncDrops}
    ), changed AS (
      SELECT * FROM updated
      -- Named through the tables' keys: a join with cur on the new id would compare every pair (cur has no index).
      UNION ALL SELECT i.id, p.external_id, c.code, NULL, i.status, 'created'
        FROM inserted i
        JOIN people p ON p.company_id = ${companyId} AND p.id = i.person_id
        JOIN classes c ON c.company_id = ${companyId} AND c.id = i.class_id
      UNION ALL SELECT * FROM dropped
    ), history AS (
      INSERT INTO enrollment_changes (id, company_id, enrollment_id, operation_id, from_status, to_status, changed_at)
      SELECT uuidv7_at(${stamp}::timestamptz), ${companyId}, id, ${input.operationId}, from_status, to_status, ${stamp}::timestamptz FROM changed
    )
    SELECT id AS "enrollmentId", external_id AS "externalId", code AS "classCode", from_status AS "fromStatus", to_status AS "toStatus", action
      FROM changed ORDER BY code, external_id`);
  return changes;
}
