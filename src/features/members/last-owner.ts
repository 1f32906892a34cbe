import { sql } from 'drizzle-orm';
import type { Tx } from '../../platform/db/database.js';
import { validationError } from '../../lib/errors.js';
import { fieldError } from '../../lib/field-errors.js';

/**
 * Locks the company's owner memberships and refuses when the change would leave none. The lock
 * serialises two owners demoting or removing each other at once: the second sees the first's result.
 */
export async function keepAnOwner(tx: Tx, companyId: string, leavingUserId: string, path: string): Promise<void> {
  const { rows } = await tx.execute<{ user_id: string }>(sql`
    SELECT user_id FROM memberships WHERE company_id = ${companyId} AND owner ORDER BY user_id FOR UPDATE`);
  const others = rows.filter((row) => row.user_id !== leavingUserId);
  if (rows.length > others.length && others.length === 0) {
    throw validationError(
      [fieldError(path, 'invalid_value', 'The company must keep at least one owner: make another member an owner first.')],
      'The last owner cannot be removed or demoted.',
    );
  }
}
