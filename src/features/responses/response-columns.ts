import { sql, type SQL } from 'drizzle-orm';
import type { OrgSource } from '../events/catalog.js';
import type { Answers } from '../forms/definition.js';

/**
 * The select lists of the response routes, named as the API names its fields, so rows go to the
 * serializer as they arrive. Timestamps leave Postgres as the contract's JSON text (UTC,
 * milliseconds), which is also the position a cursor carries. Read from alias `r`.
 */

const isoMs = (column: SQL) => sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

export type ResponseItemRow = {
  id: string;
  formId: string;
  respondent: Record<string, string | null> | null;
  answers?: Answers;
  completedAt: string | null;
  createdAt: string;
  dims: Record<string, string>;
};

export type ResponseRecordRow = ResponseItemRow & {
  answers: Answers;
  inviteId: string | null;
  orgUnitId: string | null;
  orgPath: string | null;
  orgSource: OrgSource;
};

export function itemColumns(withAnswers: boolean): SQL {
  return sql.join(
    [
      sql`r.id`,
      sql`r.form_id AS "formId"`,
      sql`r.respondent`,
      ...(withAnswers ? [sql`r.answers`] : []),
      sql`${isoMs(sql`r.completed_at`)} AS "completedAt"`,
      sql`${isoMs(sql`r.created_at`)} AS "createdAt"`,
      sql`r.dims`,
    ],
    sql`, `,
  );
}

export const recordColumns = sql`${itemColumns(true)}, r.invite_id AS "inviteId", r.org_unit_id AS "orgUnitId", r.org_path AS "orgPath", r.org_source AS "orgSource"`;
