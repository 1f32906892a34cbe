import { sql } from 'drizzle-orm';
import type { Tx } from '../../platform/db/database.js';
import type { IdGenerator } from '../../lib/ids.js';

/** The operation a roster write's status history points at; its summary is filled at the end. */
export async function startOperation(tx: Tx, deps: { newId: IdGenerator }, companyId: string, kind: 'import' | 'set-status', mode: string | null, at: Date): Promise<string> {
  const id = deps.newId();
  await tx.execute(sql`INSERT INTO roster_operations (id, company_id, kind, mode, summary, created_at)
    VALUES (${id}, ${companyId}, ${kind}, ${mode}, '{}', ${at.toISOString()}::timestamptz)`);
  return id;
}

export async function finishOperation(tx: Tx, companyId: string, id: string, summary: object): Promise<void> {
  await tx.execute(sql`UPDATE roster_operations SET summary = ${JSON.stringify(summary)}::jsonb WHERE company_id = ${companyId} AND id = ${id}`);
}
