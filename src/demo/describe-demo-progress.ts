import { sql } from 'drizzle-orm';
import type { Db } from '../platform/db/database.js';
import type { NoDeps } from '../lib/service.js';

/** What the demo company holds so far: the figures a newcomer watches grow while it is seeded. */
export interface DemoCounts {
  forms: number;
  entities: number;
  /** Responses per form, forms in slug order. */
  responses: number[];
  people: number;
  classGroups: number;
  enrollments: number;
  invites: number;
  treatments: number;
  goalRules: number;
}

/** One query over the demo company's tables (the seeders belong to their features; this only reads). */
export async function countDemoData(db: Db, _deps: NoDeps, input: { companyId: string }): Promise<DemoCounts> {
  const id = input.companyId;
  const { rows } = await db.execute<Omit<DemoCounts, 'responses'> & { responses: number[] }>(sql`
    SELECT (SELECT count(*) FROM forms WHERE company_id = ${id})::int AS "forms",
           (SELECT count(*) FROM entities WHERE company_id = ${id})::int AS "entities",
           (SELECT coalesce(jsonb_agg(n ORDER BY slug), '[]'::jsonb)
              FROM (SELECT f.slug, (SELECT count(*) FROM responses r WHERE r.company_id = ${id} AND r.form_id = f.id)::int AS n
                      FROM forms f WHERE f.company_id = ${id}) per_form) AS "responses",
           (SELECT count(*) FROM people WHERE company_id = ${id})::int AS "people",
           (SELECT count(*) FROM class_groups WHERE company_id = ${id})::int AS "classGroups",
           (SELECT count(*) FROM enrollments WHERE company_id = ${id})::int AS "enrollments",
           (SELECT count(*) FROM invites WHERE company_id = ${id})::int AS "invites",
           (SELECT count(*) FROM treatments WHERE company_id = ${id})::int AS "treatments",
           (SELECT count(*) FROM form_alert_rules WHERE company_id = ${id})::int AS "goalRules"`);
  return rows[0];
}

type Counted = Exclude<keyof DemoCounts, 'responses'>;
/** Singular and plural label of each count, in the order a line names them (after the responses). */
const LABELS: [Counted, string, string][] = [
  ['forms', 'form', 'forms'],
  ['entities', 'entity', 'entities'],
  ['people', 'person', 'people'],
  ['classGroups', 'class group', 'class groups'],
  ['enrollments', 'enrollment', 'enrollments'],
  ['invites', 'invite', 'invites'],
  ['treatments', 'treatment case', 'treatment cases'],
  ['goalRules', 'goal rule', 'goal rules'],
];

const figure = (n: number) => n.toLocaleString('en-US');
const plural = (n: number, one: string, many: string) => `${figure(n)} ${n === 1 ? one : many}`;

/** "3 forms, 57 entities" or "3,000 responses (1,000/1,000/1,000)": what one seeder added, or null. */
export function describeDemoProgress(before: DemoCounts, after: DemoCounts): string | null {
  const grown = LABELS.flatMap(([key, one, many]) => (after[key] > before[key] ? [plural(after[key] - before[key], one, many)] : []));
  // Per form only when several forms got some: "9 responses", not "9 responses (0/9/0/0)".
  const perForm = after.responses.map((n, i) => n - (before.responses[i] ?? 0)).filter((n) => n > 0);
  const responses = perForm.reduce((sum, n) => sum + n, 0);
  if (responses > 0) grown.unshift(`${plural(responses, 'response', 'responses')}${perForm.length > 1 ? ` (${perForm.map(figure).join('/')})` : ''}`);
  return grown.length > 0 ? grown.join(', ') : null;
}
