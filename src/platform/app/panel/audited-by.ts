import type { FastifyRequest } from 'fastify';
import type { AuditInput } from '../../../features/audit/index.js';

/** Who acted and from where, for the audit record of an act done through a panel route. */
export function auditedBy(request: FastifyRequest): Pick<AuditInput, 'actor' | 'ip'> {
  return { actor: { userId: request.panel.user.id, email: request.panel.user.email }, ip: request.ip };
}
