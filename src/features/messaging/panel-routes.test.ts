import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { auditOf } from '../../../test/audit-records.js';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { signInPanelUser } from '../../../test/panel.js';
import { secretBox } from '../../lib/secret-box.js';
import { channelSecretContext } from './set-whatsapp-channel.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const sealedOf = async (companyId: string) =>
  (await t.ctx.db.execute<{ sealed: Buffer }>(sql`SELECT credentials_sealed AS sealed FROM messaging_channels WHERE company_id = ${companyId}`)).rows[0]?.sealed;

it('sets the channel with a write-only token: answered as set, sealed at rest, kept when only settings change, never audited by value', async () => {
  const member = await signInPanelUser(t, { permissions: ['settings'] });
  const companyId = member.companyId!;
  const url = '/panel/api/settings/whatsapp';
  expect((await member.client.get(member, url)).json()).toEqual({ success: true, data: { channel: null } });

  const token = 'gw-secret-token-123';
  const set = await member.client.put(member, url, { provider: 'gateway', token, settings: { url: 'https://gateway.example/send', text: 'Hi {{name}}: {{url}}' } });
  expect(set.statusCode, set.body).toBe(200);
  expect(set.json().data).toEqual({ channel: { provider: 'gateway', settings: { url: 'https://gateway.example/send', text: 'Hi {{name}}: {{url}}' }, tokenSet: true } });
  const shown = await member.client.get(member, url);
  expect(shown.json().data.channel).toMatchObject({ provider: 'gateway', tokenSet: true });
  expect(shown.body).not.toContain(token);
  const sealed = (await sealedOf(companyId))!;
  expect(sealed.toString('latin1')).not.toContain(token);
  expect(secretBox(t.ctx.config.secretKey).open(sealed, channelSecretContext(companyId))).toBe(token);

  t.clock.advance(1000); // audit records are read back in time order
  const changed = await member.client.put(member, url, { provider: 'gateway', settings: { url: 'https://gateway.example/v2' } });
  expect(changed.json().data.channel.settings).toEqual({ url: 'https://gateway.example/v2' });
  expect(await sealedOf(companyId)).toEqual(sealed);

  const records = await auditOf(t, companyId, 'settings.changed');
  expect(records.map((r) => r.details)).toEqual([
    { section: 'whatsapp', tokenReplaced: true, changes: { provider: { from: null, to: 'gateway' }, url: { from: null, to: 'https://gateway.example/send' }, text: { from: null, to: 'Hi {{name}}: {{url}}' } } },
    { section: 'whatsapp', tokenReplaced: false, changes: { url: { from: 'https://gateway.example/send', to: 'https://gateway.example/v2' }, text: { from: 'Hi {{name}}: {{url}}', to: null } } },
  ]);
  expect(JSON.stringify(records)).not.toContain(token);
});

it('a new provider needs its token; bad settings are refused by field; removal is audited and a second one is 404', async () => {
  const member = await signInPanelUser(t, { permissions: ['settings'] });
  const url = '/panel/api/settings/whatsapp';
  expect((await member.client.put(member, url, { provider: 'gateway', token: 't', settings: { url: 'https://gateway.example/send' } })).statusCode).toBe(200);
  const noToken = await member.client.put(member, url, { provider: 'cloud-api', settings: { phoneNumberId: '555' } });
  expect(noToken.json().error.details.fields).toEqual([expect.objectContaining({ path: 'token', code: 'required' })]);
  const bad = await member.client.put(member, url, { provider: 'cloud-api', token: 'x', settings: { phoneNumberId: 'abc', templates: ['Not Valid'] } });
  expect(bad.json().error.details.fields.map((f: { path: string }) => f.path)).toEqual(['phoneNumberId', 'templates[0]']);
  const gateway = await member.client.put(member, url, { provider: 'gateway', token: 'x', settings: { url: 'ftp://gateway.example/' } });
  expect(gateway.json().error.details.fields).toEqual([expect.objectContaining({ path: 'url' })]);
  for (const body of [{ provider: 'sms', token: 'x', settings: {} }, { provider: 'gateway', token: 'x', settings: { url: 'https://g.example/', secret: 'x' } }]) {
    expect((await member.client.put(member, url, body)).statusCode).toBe(400);
  }
  expect((await member.client.get(member, url)).json().data.channel.provider).toBe('gateway');

  t.clock.advance(1000);
  expect((await member.client.delete(member, url)).json()).toEqual({ success: true, data: { channel: null } });
  expect((await member.client.delete(member, url)).json().error.code).toBe('NOT_FOUND');
  expect((await auditOf(t, member.companyId!, 'settings.changed')).at(-1)?.details).toEqual({ section: 'whatsapp', removed: true });
  const other = await signInPanelUser(t, { permissions: ['forms'] });
  expect((await other.client.get(other, url)).statusCode).toBe(403);
});
