/** The audit feature's public face: what other features may use (docs/CONTRIBUTING.md). */
export { recordAudit, type AuditInput } from './record-audit.js';
export { auditRecords } from './table.js';
