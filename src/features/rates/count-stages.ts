import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database.js';
import type { NoDeps } from '../../lib/service.js';
import type { GroupKind } from './vocabulary.js';

/** The stages an invite passes, in order; an invite counts at each stage up to the furthest it reached. */
export const STAGES = ['sent', 'delivered', 'opened', 'started', 'responded'] as const;
export type Stage = (typeof STAGES)[number];

/** How many invites reached each stage, and how many there are. */
export type StageCounts = Record<'invited' | Stage, number>;

export type StageRow = StageCounts & {
  kind: 'overall' | GroupKind;
  /** '' for the overall row */
  key: string;
  code: string | null;
  name: string | null;
  /** Persons actively enrolled in the group (null for the overall row). */
  enrolled: number | null;
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

const COUNTS = ['invited', ...STAGES] as const;

/** The sums of the 0/1 stage columns of relation `n` (a constant alias written here, never input). */
const stageSums = (n: string) => sql.raw(COUNTS.map((stage) => `coalesce(sum(${n}.${stage}), 0)::int AS "${stage}"`).join(', '));

/** Each count of relation `n` summed over a group's classes (0 where none of them has an invite). */
const groupSums = (n: string) => sql.raw(COUNTS.map((stage) => `coalesce(sum(${n}.${stage}), 0) AS "${stage}"`).join(', '));

/** Each count of a class set (relation `n`) times the repeats `x.times` of its persons in one group. */
const timesSums = (n: string) => sql.raw(COUNTS.map((stage) => `sum(x.times * ${n}.${stage}) AS "${stage}"`).join(', '));

/** Per group: the sum over its classes less the extra counts (g and x, constant aliases). */
const netCounts = sql.raw(COUNTS.map((stage) => `(g.${stage} - coalesce(x.${stage}, 0))::int AS "${stage}"`).join(', '));

/**
 * The stage counts of a form's non-revoked invites, overall and per roster group, in one statement
 * (one snapshot). An invite belongs to the roster person with its externalId and counts for every
 * class where that person is enrolled (not dropped), and for the class group, course, teachers and
 * every unit up the tree of those classes, once per group however many of its classes the person is in.
 * Groups are summed from their classes (a thousand rows, not a pair per person and group), less the
 * extra counts of the persons in two or more classes of one group: only they need pairs.
 */
export async function countStages(db: DbOrTx, _deps: NoDeps, input: { companyId: string; formId: string }): Promise<StageRow[]> {
  const { companyId, formId } = input;
  return db.transaction(async (tx) => {
    // Hash tables of a large roster spill to disk at the default work_mem, and JIT compiling this
    // statement costs more than running it (bench/README.md, rates).
    await tx.execute(sql`SET LOCAL work_mem = '64MB'`);
    await tx.execute(sql`SET LOCAL jit = off`);
    // The planner sorts the roster and the invites for a merge join; hashing is cheaper.
    await tx.execute(sql`SET LOCAL enable_mergejoin = off`);
    const { rows } = await tx.execute<StageRow>(sql`
    -- Each invite's 0/1 stage columns with its roster person (null outside the roster). OFFSET 0
    -- keeps the stage worked out once an invite, not once per column.
    WITH inv AS MATERIALIZED (
      SELECT p.id AS person_id, 1 AS invited, (iv.stage >= 1)::int AS sent, (iv.stage >= 2)::int AS delivered,
             (iv.stage >= 3)::int AS opened, (iv.stage >= 4)::int AS started, (iv.stage >= 5)::int AS responded
        FROM (SELECT i.external_id, ${STAGE} AS stage
                FROM invites i
               WHERE i.company_id = ${companyId} AND i.form_id = ${formId} AND i.status <> 'revoked'
              OFFSET 0) AS iv
        LEFT JOIN people p ON p.company_id = ${companyId} AND p.external_id = iv.external_id
    ),
    roster AS MATERIALIZED (
      SELECT e.person_id, e.class_id
        FROM enrollments e
       WHERE e.company_id = ${companyId} AND e.status <> 'dropped'
    ),
    -- Every group each of the company's classes counts for, itself included (each once); classes
    -- without an active enrollment drop out at the join with class_counts.
    class_keys AS MATERIALIZED (
      SELECT DISTINCT keyed.class_id, keyed.kind, keyed.key FROM classes c
      CROSS JOIN LATERAL (
        SELECT c.id AS class_id, 'class' AS kind, c.id AS key
        UNION ALL SELECT c.id, 'classGroup', c.class_group_id WHERE c.class_group_id IS NOT NULL
        UNION ALL SELECT c.id, 'course', c.course_item_id
        UNION ALL SELECT c.id, 'teacher', t.id FROM unnest(c.teacher_ids) AS t(id)
        UNION ALL SELECT c.id, 'orgUnit', a.id::uuid
          FROM entities u, unnest(string_to_array(trim(both '/' from u.org_path), '/')) AS a(id)
         WHERE u.company_id = ${companyId} AND u.id = c.org_unit_id
      ) AS keyed
       WHERE c.company_id = ${companyId}
    ),
    class_counts AS (
      SELECT r.class_id, count(*) AS enrolled FROM roster r GROUP BY r.class_id
    ),
    class_invites AS (
      SELECT r.class_id, ${stageSums('v')} FROM roster r JOIN inv v ON v.person_id = r.person_id GROUP BY r.class_id
    ),
    summed AS (
      SELECT k.kind, k.key, sum(cc.enrolled) AS enrolled, ${groupSums('ci')}
        FROM class_keys k JOIN class_counts cc ON cc.class_id = k.class_id
        LEFT JOIN class_invites ci ON ci.class_id = k.class_id
       GROUP BY k.kind, k.key
    ),
    -- A person in n > 1 classes of one group was summed n times: n - 1 of them are extra. Persons
    -- are taken by the set of classes they are in (a cohort shares one), so each set's shared
    -- groups are found once, not once per person.
    class_sets AS MATERIALIZED (
      SELECT r.person_id, array_agg(r.class_id ORDER BY r.class_id) AS classes
        FROM roster r
       WHERE r.person_id IN (SELECT person_id FROM roster GROUP BY person_id HAVING count(*) > 1)
       GROUP BY r.person_id
    ),
    per_set AS MATERIALIZED (
      SELECT s.classes, count(*) AS persons FROM class_sets s GROUP BY s.classes
    ),
    set_invites AS (
      SELECT s.classes, ${stageSums('v')} FROM class_sets s JOIN inv v ON v.person_id = s.person_id GROUP BY s.classes
    ),
    set_repeats AS (
      SELECT ps.classes, k.kind, k.key, count(*) - 1 AS times
        FROM per_set ps CROSS JOIN LATERAL unnest(ps.classes) AS c(id)
        JOIN class_keys k ON k.class_id = c.id AND k.kind <> 'class'
       GROUP BY ps.classes, k.kind, k.key
      HAVING count(*) > 1
    ),
    extra AS (
      SELECT x.kind, x.key, sum(x.times * ps.persons) AS enrolled, ${timesSums('si')}
        FROM set_repeats x JOIN per_set ps ON ps.classes = x.classes
        LEFT JOIN set_invites si ON si.classes = x.classes
       GROUP BY x.kind, x.key
    ),
    groups AS (
      SELECT g.kind, g.key, (g.enrolled - coalesce(x.enrolled, 0))::int AS enrolled, ${netCounts}
        FROM summed g LEFT JOIN extra x ON x.kind = g.kind AND x.key = g.key
      -- Only groups that hold an invited person (their net invites): the company's other classes are
      -- no part of this form.
       WHERE g.invited - coalesce(x.invited, 0) > 0
    )
    SELECT 'overall' AS kind, '' AS key, NULL AS code, NULL AS name, NULL::int AS enrolled, ${stageSums('o')}
      FROM inv o
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
