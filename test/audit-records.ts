import { and, asc, eq } from 'drizzle-orm';
import type { TestApp } from './harness.js';
import { auditRecords } from '../src/features/audit/index.js';

/** The audit records of a company with a given action, oldest first (tests of audited panel acts). */
export function auditOf(t: TestApp, companyId: string, action: string) {
  return t.ctx.db
    .select({ action: auditRecords.action, actorUserId: auditRecords.actorUserId, actorEmail: auditRecords.actorEmail, details: auditRecords.details, ip: auditRecords.ip })
    .from(auditRecords)
    .where(and(eq(auditRecords.companyId, companyId), eq(auditRecords.action, action)))
    .orderBy(asc(auditRecords.createdAt), asc(auditRecords.id));
}
