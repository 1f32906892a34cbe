import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { createSurvey } from '../../../test/responses.js';
import { emailKind } from '../messaging/email-kind.js';
import { startOutboundLoop } from '../../platform/outbound/loop.js';
import { importInvites } from './import-invites.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

/** One invite created alone (POST) and one imported, both sent in one send call. */
async function setup() {
  const tenant = await t.tenant();
  const survey = await createSurvey(t, tenant.company.id);
  const base = `/v1/forms/${survey.form.id}/invites`;
  const alone = (await t.post(tenant.token, base, { email: 'alone@school.edu' })).json().data;
  const imported = await importInvites(t.ctx.db, t.ctx, { companyId: tenant.company.id, form: survey.form, source: Readable.from(['name,email\nIm,imported@school.edu\n']) });
  const list = (await t.get(tenant.token, base)).json().data as { id: string; email: string }[];
  const importedId = list.find((i) => i.email === 'imported@school.edu')!.id;
  const send = (await t.post(tenant.token, `${base}/send`, { channel: 'email' })).json().data;
  expect(send.queued).toBe(2);
  return { ...tenant, base, alone: alone.id as string, importedId, importBatch: imported.batchId, sendBatch: send.batchId as string };
}

async function eventData(companyId: string, type: string) {
  const { rows } = await t.ctx.db.execute<{ data: { inviteId: string; batchId: string | null; sendBatchId?: string } }>(
    sql`SELECT data FROM events WHERE company_id = ${companyId} AND type = ${type}`,
  );
  return Object.fromEntries(rows.map(({ data }) => [data.inviteId, { batchId: data.batchId, sendBatchId: data.sendBatchId }]));
}

describe('data.batchId of invite.* events (the invite\'s batch, as the spec defines it)', () => {
  it('is null for an invite created alone and the import\'s batch for an imported one; sendBatchId names the send', async () => {
    const s = await setup();
    const loop = await startOutboundLoop(t.ctx, emailKind(t.ctx), { listen: false, pollIntervalMs: null });
    await loop.drain();
    await loop.stop();
    expect(await eventData(s.company.id, 'invite.sent')).toEqual({
      [s.alone]: { batchId: null, sendBatchId: s.sendBatch },
      [s.importedId]: { batchId: s.importBatch, sendBatchId: s.sendBatch },
    });
  });

  it('is the invite\'s own batch on the events of a queued invite revoked before its send left', async () => {
    const s = await setup();
    for (const id of [s.alone, s.importedId]) expect((await t.post(s.token, `/v1/invites/${id}/revoke`)).statusCode).toBe(200);
    expect(await eventData(s.company.id, 'invite.revoked')).toEqual({
      [s.alone]: { batchId: null, sendBatchId: s.sendBatch },
      [s.importedId]: { batchId: s.importBatch, sendBatchId: s.sendBatch },
    });
  });

  it('carries no sendBatchId when the invite was never sent', async () => {
    const s = await t.tenant();
    const survey = await createSurvey(t, s.company.id);
    const alone = (await t.post(s.token, `/v1/forms/${survey.form.id}/invites`, { email: 'never@school.edu' })).json().data;
    await t.post(s.token, `/v1/invites/${alone.id}/revoke`);
    const { rows } = await t.ctx.db.execute<{ data: Record<string, unknown> }>(sql`SELECT data FROM events WHERE company_id = ${s.company.id} AND type = 'invite.revoked'`);
    expect(rows).toHaveLength(1);
    expect(rows[0].data.batchId).toBeNull();
    expect('sendBatchId' in rows[0].data).toBe(false);
  });
});
