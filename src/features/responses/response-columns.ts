import { sql, type SQL } from 'drizzle-orm';
import type { OrgSource } from '../events/index.js';
import type { Answers, PresentedOrder } from '../forms/index.js';
import { isoTimestamp } from '../../platform/db/iso-timestamp.js';

/**
 * The select lists of the response routes, named as the API names its fields. Timestamps leave
 * Postgres as the contract's JSON text (UTC, milliseconds), which is also the position a cursor
 * carries. Read from alias `r`.
 */

export type ResponseItemRow = {
  id: string;
  formId: string;
  respondent: Record<string, string | null> | null;
  answers?: Answers;
  completedAt: string | null;
  createdAt: string;
  dims: Record<string, string>;
  presentedOrder?: PresentedOrder | null;
};

/** A row of itemColumns(…, 'text'): the jsonb fields as their JSON text, null respondent as SQL null. */
export type ResponseItemTextRow = Omit<ResponseItemRow, 'respondent' | 'answers' | 'dims' | 'presentedOrder'> & {
  respondent: string | null;
  answers?: string;
  dims: string;
  presentedOrder?: string | null;
};

export type ResponseRecordRow = Omit<ResponseItemRow, 'presentedOrder'> & {
  answers: Answers;
  inviteId: string | null;
  orgUnitId: string | null;
  orgPath: string | null;
  orgSource: OrgSource;
  presentedOrder: PresentedOrder | null;
};

/** The fields of a Response (and, for the export, its presentedOrder); the jsonb ones parsed by pg into values, or left as their JSON text. */
export function itemColumns(withAnswers: boolean, jsonb: 'values' | 'text' = 'values', withPresentedOrder = false): SQL {
  const json = (column: string) => sql.raw(jsonb === 'text' ? `r.${column}::text AS ${column}` : `r.${column}`);
  return sql.join(
    [
      sql`r.id`,
      sql`r.form_id AS "formId"`,
      json('respondent'),
      ...(withAnswers ? [json('answers')] : []),
      sql`${isoTimestamp(sql`r.completed_at`)} AS "completedAt"`,
      sql`${isoTimestamp(sql`r.created_at`)} AS "createdAt"`,
      json('dims'),
      ...(withPresentedOrder ? [sql.raw(jsonb === 'text' ? `r.presented_order::text AS "presentedOrder"` : `r.presented_order AS "presentedOrder"`)] : []),
    ],
    sql`, `,
  );
}

export const recordColumns = sql`${itemColumns(true)}, r.invite_id AS "inviteId", r.org_unit_id AS "orgUnitId", r.org_path AS "orgPath", r.org_source AS "orgSource", r.presented_order AS "presentedOrder"`;
