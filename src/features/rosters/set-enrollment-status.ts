import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database.js';
import { notFound } from '../../lib/errors.js';
import { applyEnrollments, type EnrollmentChange } from './apply-enrollments.js';
import { emitDropped } from './emit-dropped.js';
import type { ImportDeps } from './import-roster.js';
import { lockRosterWrites } from './roster-lock.js';
import { finishOperation, startOperation } from './roster-operation.js';
import type { EnrollmentStatus } from './table.js';

export interface SetEnrollmentStatusInput {
  externalId: string;
  classCode: string;
  status: EnrollmentStatus;
}

/**
 * A status change made elsewhere than an import (the operator CLI, later the panel): the same
 * write path, so it is stamped, recorded in the history and announced like an imported change;
 * setting the status an enrollment already has changes and emits nothing. Creates the enrollment
 * when the person and the class exist but were not enrolled together.
 */
export async function setEnrollmentStatus(
  db: DbOrTx,
  deps: ImportDeps,
  input: { companyId: string } & SetEnrollmentStatusInput,
): Promise<{ change: EnrollmentChange | null; events: number }> {
  const { companyId } = input;
  return db.transaction(async (tx) => {
    const stamp = await lockRosterWrites(tx, deps.clock, companyId);
    const { rows } = await tx.execute<{ person: boolean; class: boolean }>(sql`
      SELECT EXISTS (SELECT 1 FROM people WHERE company_id = ${companyId} AND external_id = ${input.externalId}) AS person,
             EXISTS (SELECT 1 FROM classes WHERE company_id = ${companyId} AND code = ${input.classCode}) AS class`);
    if (!rows[0].person) throw notFound(`Person ${input.externalId}`);
    if (!rows[0].class) throw notFound(`Class ${input.classCode}`);
    const operationId = await startOperation(tx, deps, companyId, 'set-status', null, stamp);
    const changes = await applyEnrollments(tx, deps, companyId, { stamp, operationId, rows: [{ index: 0, ...input }], syncClasses: null, mentioned: [] });
    const events = await emitDropped(tx, deps, companyId, changes);
    await finishOperation(tx, companyId, operationId, { changes: changes.length, events });
    return { change: changes[0] ?? null, events };
  });
}
