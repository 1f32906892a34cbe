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
    // The distinct (group, person) pairs of a large roster spill to disk at the default work_mem,
    // and JIT compiling this statement costs more than running it (bench/README.md, rates).
    await tx.execute(sql`SET LOCAL work_mem = '64MB'`);
    await tx.execute(sql`SET LOCAL jit = off`);
    // The planner sorts the roster and the per-person counts for a merge join; hashing is cheaper.
    await tx.execute(sql`SET LOCAL enable_mergejoin = off`);
    const { rows } = await tx.execute<StageRow>(sql`
    -- One row per external id (a person may hold several invites of the form), counts in columns;
    -- grouped on the invites' own column so the planner knows how many rows follow. OFFSET 0 keeps
    -- the stage worked out once an invite, not once per count.
    WITH per_external AS MATERIALIZED (
      SELECT i.external_id, count(*) AS invited, count(*) FILTER (WHERE s.stage >= 1) AS sent,
             count(*) FILTER (WHERE s.stage >= 2) AS delivered, count(*) FILTER (WHERE s.stage >= 3) AS opened,
             count(*) FILTER (WHERE s.stage >= 4) AS started, count(*) FILTER (WHERE s.stage >= 5) AS responded
        FROM invites i CROSS JOIN LATERAL (SELECT ${STAGE} AS stage OFFSET 0) AS s
       WHERE i.company_id = ${companyId} AND i.form_id = ${formId} AND i.status <> 'revoked'
       GROUP BY i.external_id
    ),
    -- Keyed by the roster's person (external ids are unique among a company's people).
    per_person AS MATERIALIZED (
      SELECT p.id AS person_id, o.invited, o.sent, o.delivered, o.opened, o.started, o.responded
        FROM per_external o JOIN people p ON p.company_id = ${companyId} AND p.external_id = o.external_id
    ),
    roster AS MATERIALIZED (
      SELECT e.person_id, e.class_id
        FROM enrollments e
       WHERE e.company_id = ${companyId} AND e.status <> 'dropped'
    ),
    -- Every group a class of the roster counts for, itself included (each once).
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
       WHERE c.company_id = ${companyId} AND c.id IN (SELECT class_id FROM roster)
    ),
    class_counts AS (
      SELECT r.class_id, count(*) AS enrolled, count(pp.person_id) AS invited_persons, ${stageSums('pp')}
        FROM roster r LEFT JOIN per_person pp ON pp.person_id = r.person_id
       GROUP BY r.class_id
    ),
    summed AS (
      SELECT k.kind, k.key, sum(cc.enrolled) AS enrolled, sum(cc.invited_persons) AS invited_persons,
             ${sql.raw(COUNTS.map((stage) => `sum(cc.${stage}) AS "${stage}"`).join(', '))}
        FROM class_keys k JOIN class_counts cc ON cc.class_id = k.class_id
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
      SELECT s.classes, count(*) AS persons, count(pp.person_id) AS invited_persons, ${stageSums('pp')}
        FROM class_sets s LEFT JOIN per_person pp ON pp.person_id = s.person_id
       GROUP BY s.classes
    ),
    set_repeats AS (
      SELECT ps.classes, k.kind, k.key, count(*) - 1 AS times
        FROM per_set ps CROSS JOIN LATERAL unnest(ps.classes) AS c(id)
        JOIN class_keys k ON k.class_id = c.id AND k.kind <> 'class'
       GROUP BY ps.classes, k.kind, k.key
      HAVING count(*) > 1
    ),
    extra AS (
      SELECT x.kind, x.key, sum(x.times * ps.persons) AS enrolled, sum(x.times * ps.invited_persons) AS invited_persons,
             ${timesSums('ps')}
        FROM set_repeats x JOIN per_set ps ON ps.classes = x.classes
       GROUP BY x.kind, x.key
    ),
    groups AS (
      SELECT g.kind, g.key, (g.enrolled - coalesce(x.enrolled, 0))::int AS enrolled, ${netCounts}
        FROM summed g LEFT JOIN extra x ON x.kind = g.kind AND x.key = g.key
      -- Only groups that hold an invited person: the company's other classes are no part of this form.
       WHERE g.invited_persons - coalesce(x.invited_persons, 0) > 0
    )
    SELECT 'overall' AS kind, '' AS key, NULL AS code, NULL AS name, NULL::int AS enrolled, ${stageSums('o')}
      FROM per_external o
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
