import { eq } from 'drizzle-orm';
import type { NoDeps } from '../../lib/service.js';
import type { DbOrTx } from '../../platform/db/database.js';
import { ApiError } from '../../lib/errors.js';
import { isUuid } from '../../lib/ids.js';
import { treatments } from './table.js';

/** The company of a case, for the operator CLI, which names a case by id alone (contract decisions). */
export async function companyOfCase(db: DbOrTx, _deps: NoDeps, input: { id: string }): Promise<string> {
  const { id } = input;
  const [row] = isUuid(id) ? await db.select({ companyId: treatments.companyId }).from(treatments).where(eq(treatments.id, id)) : [];
  if (!row) throw new ApiError('NOT_FOUND', `No case with id "${id}".`);
  return row.companyId;
}
