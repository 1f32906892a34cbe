import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import type { DbOrTx } from '../../db/database.js';
import { recordAudit } from '../../../features/audit/index.js';

/**
 * Records an act of the signed-in member behind `request` (who, which company, from which address
 * all come from the session and the connection, never from input). Call it with the act's transaction.
 */
export function auditPanelAct(tx: DbOrTx, ctx: AppContext, input: { request: FastifyRequest; action: string; details: Record<string, unknown> }): Promise<void> {
  const { request, action, details } = input;
  const { companyId, user } = request.panel;
  return recordAudit(tx, ctx, { companyId, actor: { userId: user.id, email: user.email }, action, details, ip: request.ip });
}
