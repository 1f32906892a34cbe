import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database.js';
import type { FormRecord } from '../forms/index.js';

/** How a cut is split: the whole form, by one dim, or by org unit subtree. */
export type AuthorGrouping = { kind: 'whole' } | { kind: 'dim'; key: string } | { kind: 'org' };

/** Enrollments that make a person a possible author: enrolled or completed, not dropped. */
const ACTIVE = sql`e.status <> 'dropped'`;

/** Every unit on an org path /<root>/.../<unit>/ (a response there is in each of their subtrees). */
const ancestorsOf = (path: SQL) => sql`unnest(string_to_array(trim(both '/' from ${path}), '/'))`;

/**
 * The persons enrolled in the classes of each group of a class-linked form (one person in two
 * classes of a group counts once). A dim the class does not give (not source "class") has no
 * enrolled persons per value: its groups count their responses.
 */
function classAuthors(form: FormRecord, companyId: string, grouping: AuthorGrouping): SQL | null {
  const from = sql`FROM enrollments e JOIN classes c ON c.company_id = e.company_id AND c.id = e.class_id`;
  const where = sql`WHERE e.company_id = ${companyId} AND ${ACTIVE}`;
  if (grouping.kind === 'whole') return sql`SELECT '' AS value, count(DISTINCT e.person_id)::int AS n ${from} ${where}`;
  const unitDim = form.content.dims.find((dim) => dim.kind === 'unit');
  if (grouping.kind === 'org') {
    if (unitDim?.source !== 'class') return null;
    return sql`SELECT a.value, count(DISTINCT e.person_id)::int AS n ${from}
      JOIN entities u ON u.company_id = c.company_id AND u.id = c.org_unit_id, ${ancestorsOf(sql`u.org_path`)} AS a(value)
      ${where} GROUP BY a.value`;
  }
  const dim = form.content.dims.find((d) => d.key === grouping.key);
  if (dim?.source !== 'class') return null;
  const column = dim.kind === 'course' ? sql`c.course_item_id` : sql`c.org_unit_id`;
  return sql`SELECT ${column}::text AS value, count(DISTINCT e.person_id)::int AS n ${from} ${where} GROUP BY 1`;
}

/** The form's non-revoked invites per group; a dim the invite does not carry has no invite counts. */
function inviteAuthors(form: FormRecord, companyId: string, grouping: AuthorGrouping): SQL | null {
  const where = sql`WHERE i.company_id = ${companyId} AND i.form_id = ${form.id} AND i.status <> 'revoked'`;
  if (grouping.kind === 'whole') return sql`SELECT '' AS value, count(*)::int AS n FROM invites i ${where}`;
  if (grouping.kind === 'org') {
    return sql`SELECT a.value, count(*)::int AS n FROM invites i, ${ancestorsOf(sql`i.org_path`)} AS a(value) ${where} GROUP BY a.value`;
  }
  const dim = form.content.dims.find((d) => d.key === grouping.key);
  if (dim?.source !== 'invite') return null;
  return sql`SELECT i.dims->>${grouping.key} AS value, count(*)::int AS n FROM invites i ${where} AND i.dims ? ${grouping.key} GROUP BY 1`;
}

export const isClassLinked = (form: FormRecord) => form.content.dims.some((dim) => dim.source === 'class');

/**
 * Possible authors a cut has beyond its responses (contract decisions, "Statistics and
 * reports"), per group value ('' for the whole form): persons enrolled in the cut's classes for
 * a class-linked form, else the cut's non-revoked invites (none for a public-link form, which
 * counts its responses). Invites and enrollments carry no day, so a period cut counts them all;
 * possibleAuthors never counts fewer than the cut's responses.
 */
export async function sourceAuthors(tx: DbOrTx, form: FormRecord, companyId: string, grouping: AuthorGrouping): Promise<Map<string, number>> {
  const query = isClassLinked(form) ? classAuthors(form, companyId, grouping) : inviteAuthors(form, companyId, grouping);
  if (!query) return new Map();
  const { rows } = await tx.execute<{ value: string; n: number }>(query);
  return new Map(rows.map((row) => [row.value, row.n]));
}
