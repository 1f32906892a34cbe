import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import type { DemoSeeder } from '../../demo/index.js';
import { findFormBySlug } from '../forms/index.js';

export const DEMO_INVITE_FORM = 'library-services';

const CONTACTS = [
  'name,email,phone,externalId',
  'Ana Silva,ana.silva@demo.school,,S-1001',
  'Bruno Souza,bruno.souza@demo.school,,S-1002',
  'Carla Lima,carla.lima@demo.school,,S-1003',
  'Diego Costa,diego.costa@demo.school,,S-1004',
  'Elisa Gomes,,+5511987650005,S-1005',
  'Felipe Ribeiro,felipe.ribeiro@demo.school,,S-1006',
].join('\n');

/**
 * The demo's invites, one import batch on the library form in several states: two sent (the
 * messaging seeder, next, delivers them into the development mailbox), one scheduled for tomorrow,
 * one revoked, the rest created and ready for a first send.
 */
export const seedDemoInvites: DemoSeeder = async (ctx, company) => {
  // Loaded here, not with the index: sending reaches messaging, whose kinds read this index.
  const [{ importInvites }, { revokeInvite }, { sendInvites }] = await Promise.all([
    import('./import-invites.js'),
    import('./revoke-invite.js'),
    import('./send-invites.js'),
  ]);
  const form = await findFormBySlug(ctx.db, ctx, { companyId: company.id, slug: DEMO_INVITE_FORM });
  const { batchId } = await importInvites(ctx.db, ctx, { companyId: company.id, form, source: Readable.from([CONTACTS]) });
  const { rows } = await ctx.db.execute<{ id: string; external_id: string }>(sql`SELECT id, external_id FROM invites WHERE batch_id = ${batchId}`);
  const id = Object.fromEntries(rows.map((r) => [r.external_id, r.id]));
  const send = (ids: string[], scheduleAt?: Date) =>
    sendInvites(ctx.db, ctx, { companyId: company.id, formId: form!.id, channel: 'email', inviteIds: ids, scheduleAt: scheduleAt?.toISOString() });

  await send([id['S-1001'], id['S-1002']]);
  await send([id['S-1003']], new Date(ctx.clock.now().getTime() + 24 * 3600_000));
  await revokeInvite(ctx.db, ctx, { companyId: company.id, inviteId: id['S-1004'] });
};
