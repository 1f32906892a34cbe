import { sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../../platform/db/database.js';

/** One column written from a payload row `r` (jsonb). */
export interface UpsertColumn {
  column: string;
  /** The row's field: when `keepWhenOmitted` and the row lacks it, the stored value stays. */
  field: string;
  /** The new value, an expression of r. */
  value: SQL;
  keepWhenOmitted?: boolean;
}

export interface UpsertSpec {
  table: 'people' | 'classes' | 'class_groups';
  /** The company-unique key: column and row field. */
  keyColumn: string;
  keyField: string;
  columns: UpsertColumn[];
}

export interface UpsertOutcome {
  key: string;
  action: 'created' | 'updated';
}

/**
 * Creates the rows whose key the company lacks and updates those that differ, in one statement:
 * rows equal to the stored ones are not touched (their updated_at stays). Each row carries an
 * `id` for the case it is new. The unique key (company_id, key) settles a concurrent creation
 * (ON CONFLICT DO NOTHING); roster writes are serialised per company anyway (roster-lock.ts).
 */
export async function upsertByKey(tx: Tx, spec: UpsertSpec, companyId: string, now: Date, rows: object[]): Promise<UpsertOutcome[]> {
  if (rows.length === 0) return [];
  const table = sql.raw(spec.table);
  const key = sql.raw(spec.keyColumn);
  const at = now.toISOString();
  const columnNames = sql.raw(spec.columns.map((c) => c.column).join(', '));
  const incoming = sql.join(
    spec.columns.map((c) => sql`${c.value} AS ${sql.raw(c.column)}`),
    sql`, `,
  );
  const next = (c: UpsertColumn) =>
    c.keepWhenOmitted ? sql`CASE WHEN v.r ? ${c.field} THEN v.${sql.raw(c.column)} ELSE t.${sql.raw(c.column)} END` : sql`v.${sql.raw(c.column)}`;
  const stored = sql.join(spec.columns.map((c) => sql`t.${sql.raw(c.column)}`), sql`, `);
  const wanted = sql.join(spec.columns.map(next), sql`, `);
  const assignments = sql.join(spec.columns.map((c) => sql`${sql.raw(c.column)} = ${next(c)}`), sql`, `);
  const { rows: outcomes } = await tx.execute<{ key: string; action: 'created' | 'updated' }>(sql`
    WITH v AS (
      SELECT r, (r->>'id')::uuid AS id, r->>${spec.keyField} AS key, ${incoming}
        FROM jsonb_array_elements(${JSON.stringify(rows)}::jsonb) AS r
    ), updated AS (
      UPDATE ${table} t SET ${assignments}, updated_at = ${at}::timestamptz
        FROM v
       WHERE t.company_id = ${companyId} AND t.${key} = v.key AND ROW(${stored}) IS DISTINCT FROM ROW(${wanted})
      RETURNING t.${key} AS key
    ), created AS (
      INSERT INTO ${table} (id, company_id, ${key}, ${columnNames}, created_at, updated_at)
      SELECT v.id, ${companyId}, v.key, ${columnNames}, ${at}::timestamptz, ${at}::timestamptz
        FROM v
       WHERE NOT EXISTS (SELECT 1 FROM ${table} t WHERE t.company_id = ${companyId} AND t.${key} = v.key)
      ON CONFLICT (company_id, ${key}) DO NOTHING
      RETURNING ${key} AS key
    )
    SELECT key, 'updated' AS action FROM updated UNION ALL SELECT key, 'created' AS action FROM created`);
  return outcomes;
}
