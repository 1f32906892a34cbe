import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database.js';
import type { NoDeps } from '../../lib/service.js';
import type { GroupKind } from './vocabulary.js';

/** The stages an invite passes, in order; an invite counts at each stage up to the furthest it reached. */
export const STAGES = ['sent', 'delivered', 'opened', 'started', 'responded'] as const;
export type Stage = (typeof STAGES)[number];

export type StageRow = {
  kind: 'overall' | GroupKind;
  /** '' for the overall row */
  key: string;
  code: string | null;
  name: string | null;
  /** Persons actively enrolled in the group (null for the overall row). */
  enrolled: number | null;
  invited: number;
  sent: number;
  delivered: number;
  opened: number;
  started: number;
  responded: number;
};

/**
 * The furthest stage each invite reached, 0 (not sent) to 5 (responded). Stamps and the main line
 * of statuses only move forward; a failed or expired invite keeps what its stamps record, and
 * counts as sent when one of its messages left (its delivery receipt is not kept).
 */
const STAGE = sql`CASE
  WHEN i.status = 'responded' OR i.responded_at IS NOT NULL THEN 5
  WHEN i.status = 'started' OR i.started_at IS NOT NULL THEN 4
  WHEN i.status = 'opened' OR i.opened_at IS NOT NULL THEN 3
  WHEN i.status = 'delivered' THEN 2
  WHEN i.status = 'sent' OR EXISTS (SELECT 1 FROM invite_messages m WHERE m.company_id = i.company_id AND m.invite_id = i.id AND m.status = 'sent') THEN 1
  ELSE 0 END`;

/** The sums of the 0/1 stage columns of relation `n` (a constant alias written here, never input). */
const stageSums = (n: string) => sql.raw(['invited', ...STAGES].map((stage) => `coalesce(sum(${n}.${stage}), 0)::int AS "${stage}"`).join(', '));

/**
 * The stage counts of a form's non-revoked invites, overall and per roster group, in one statement
 * (one snapshot). An invite belongs to the roster person with its externalId and counts for every
 * class where that person is enrolled (not dropped), and for the class group, course, teachers and
 * every unit up the tree of those classes, once per group however many of its classes the person is in.
 */
export async function countStages(db: DbOrTx, _deps: NoDeps, input: { companyId: string; formId: string }): Promise<StageRow[]> {
  const { companyId, formId } = input;
  return db.transaction(async (tx) => {
    // The distinct (group, person) pairs of a large roster spill to disk at the default work_mem,
    // and JIT compiling this statement costs more than running it (bench/README.md, rates).
    await tx.execute(sql`SET LOCAL work_mem = '64MB'`);
    await tx.execute(sql`SET LOCAL jit = off`);
    const { rows } = await tx.execute<StageRow>(sql`
    WITH invited AS MATERIALIZED (
      SELECT i.external_id, ${STAGE} AS stage
        FROM invites i
       WHERE i.company_id = ${companyId} AND i.form_id = ${formId} AND i.status <> 'revoked'
    ),
    -- One row per invite (counted in their 0/1 columns), so a person's invites are summed per group.
    per_invite AS (
      SELECT external_id, 1 AS invited, (stage >= 1)::int AS sent, (stage >= 2)::int AS delivered,
             (stage >= 3)::int AS opened, (stage >= 4)::int AS started, (stage >= 5)::int AS responded
        FROM invited
    ),
    -- Keyed by person (the roster's own key), so the per-group distinct below stays narrow.
    per_person AS MATERIALIZED (
      SELECT p.id AS person_id, sum(o.invited) AS invited, sum(o.sent) AS sent, sum(o.delivered) AS delivered,
             sum(o.opened) AS opened, sum(o.started) AS started, sum(o.responded) AS responded
        FROM per_invite o JOIN people p ON p.company_id = ${companyId} AND p.external_id = o.external_id
       GROUP BY p.id
    ),
    roster AS MATERIALIZED (
      SELECT e.person_id, c.id AS class_id, c.class_group_id, c.course_item_id, c.org_unit_id, c.teacher_ids
        FROM enrollments e JOIN classes c ON c.company_id = e.company_id AND c.id = e.class_id
       WHERE e.company_id = ${companyId} AND e.status <> 'dropped'
    ),
    members AS (
      SELECT DISTINCT kind, key, person_id FROM (
        SELECT 'class' AS kind, class_id AS key, person_id FROM roster
        UNION ALL SELECT 'classGroup', class_group_id, person_id FROM roster WHERE class_group_id IS NOT NULL
        UNION ALL SELECT 'course', course_item_id, person_id FROM roster
        UNION ALL SELECT 'teacher', t.id, person_id FROM roster, unnest(teacher_ids) AS t(id)
        UNION ALL SELECT 'orgUnit', a.id::uuid, r.person_id
          FROM roster r JOIN entities u ON u.company_id = ${companyId} AND u.id = r.org_unit_id,
               unnest(string_to_array(trim(both '/' from u.org_path), '/')) AS a(id)
      ) AS keyed
    ),
    groups AS (
      SELECT m.kind, m.key, count(*)::int AS enrolled, ${stageSums('pp')}
        FROM members m LEFT JOIN per_person pp ON pp.person_id = m.person_id
       GROUP BY m.kind, m.key
      -- Only groups that hold an invited person: the company's other classes are no part of this form.
      HAVING count(pp.person_id) > 0
    )
    SELECT 'overall' AS kind, '' AS key, NULL AS code, NULL AS name, NULL::int AS enrolled, ${stageSums('o')}
      FROM per_invite o
    UNION ALL
    SELECT g.kind, g.key::text, coalesce(c.code, cg.code, en.code), coalesce(c.name, cg.name, en.name), g.enrolled,
           g.invited, g.sent, g.delivered, g.opened, g.started, g.responded
      FROM groups g
      LEFT JOIN classes c ON g.kind = 'class' AND c.company_id = ${companyId} AND c.id = g.key
      LEFT JOIN class_groups cg ON g.kind = 'classGroup' AND cg.company_id = ${companyId} AND cg.id = g.key
      LEFT JOIN entities en ON g.kind IN ('course', 'teacher', 'orgUnit') AND en.company_id = ${companyId} AND en.id = g.key
  `);
    return rows;
  });
}
