import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { createSurvey, SURVEY } from '../../../test/responses.js';
import { exportForm } from '../forms/export-form.js';
import { importForm } from '../forms/import-form.js';
import { devMailbox, listDevMail } from '../messaging/dev-mailbox.js';
import { emailKind } from '../messaging/email-kind.js';
import { startOutboundLoop } from '../../platform/outbound/loop.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

const EMAIL = {
  subject: '{{formName}}: {{name}}, your turn',
  body: 'Dear {{name}},\n{{#externalId}}Student {{externalId}}\n{{/externalId}}Answer here: {{url}}',
};

/** Sends the queued messages into the development mailbox; answers the mail to `address`. */
async function deliveredMail(address: string) {
  const loop = await startOutboundLoop(t.ctx, emailKind(t.ctx, devMailbox(t.ctx.db, t.ctx)), { listen: false, pollIntervalMs: null });
  try {
    await loop.drain();
  } finally {
    await loop.stop();
  }
  return (await listDevMail(t.ctx.db, t.ctx)).find((m) => m.to === address)!;
}

describe("the form definition's e-mail block", () => {
  it('is imported, exported and used for the invitation, and never shown by the API', async () => {
    const { company, token } = await t.tenant();
    const survey = await createSurvey(t, company.id);
    expect(await importForm(t.ctx.db, t.ctx, { companyId: company.id, rawJson: { ...SURVEY, email: EMAIL } })).toMatchObject({ status: 'updated' });
    expect((await exportForm(t.ctx.db, t.ctx, { companyId: company.id, idOrSlug: SURVEY.slug })).email).toEqual(EMAIL);
    expect(await importForm(t.ctx.db, t.ctx, { companyId: company.id, rawJson: { ...SURVEY, email: EMAIL } })).toMatchObject({ status: 'unchanged' });

    const base = `/v1/forms/${survey.form.id}/invites`;
    const ana = (await t.post(token, base, { email: 'ana@school.edu', name: 'Ana', externalId: 'A-1' })).json().data;
    const unnamed = (await t.post(token, base, { email: 'bo@school.edu' })).json().data;
    // {{name}} outside a section: an invite without a name cannot be written to.
    const sent = await t.post(token, `${base}/send`, { channel: 'email' });
    expect(sent.json().data).toMatchObject({ queued: 1, skipped: [{ id: unnamed.id, reason: 'missing_var' }] });
    const mail = await deliveredMail('ana@school.edu');
    expect(mail.subject).toBe('Course survey: Ana, your turn');
    expect(mail.text).toContain(`Dear Ana,\nStudent A-1\nAnswer here: ${ana.url}`);

    const detail = await t.get(token, `/v1/forms/${survey.form.id}`);
    expect(detail.statusCode).toBe(200);
    expect(detail.body).not.toContain('your turn');
  });

  it('refuses unescaped tags at import ({{{name}}}, {{& dims.course}}), and the stored form is left as it was', async () => {
    const { company } = await t.tenant();
    await createSurvey(t, company.id);
    const email = { subject: '{{{formName}}}', body: 'Dear {{{name}}} of {{& dims.course}}: {{url}}' };
    const error = await importForm(t.ctx.db, t.ctx, { companyId: company.id, rawJson: { ...SURVEY, email } }).catch((err: unknown) => err);
    expect(error).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: {
        fields: [
          { path: 'email.subject', code: 'invalid_format', message: expect.stringContaining('{{{formName}}}') },
          { path: 'email.body', code: 'invalid_format', message: expect.stringContaining('({{{name}}}, {{& dims.course}})') },
        ],
      },
    });
    expect((await exportForm(t.ctx.db, t.ctx, { companyId: company.id, idOrSlug: SURVEY.slug })).email).toBeUndefined();
  });

  it('escapes every variable in the HTML part, also the unescaped tags of a form stored before they were refused', async () => {
    const { company, token } = await t.tenant();
    const survey = await createSurvey(t, company.id);
    await importForm(t.ctx.db, t.ctx, { companyId: company.id, rawJson: { ...SURVEY, dims: [...SURVEY.dims, { key: 'group', kind: 'text', source: 'invite' }] } });
    // Written past the import's checks, as a form saved by an earlier version would be.
    const body = 'Dear {{{name}}} ({{& externalId}}, {{{dims.group}}}, {{name}}){{#name}} {{{.}}}{{/name}}: {{url}}';
    await t.ctx.db.execute(sql`UPDATE forms SET content = jsonb_set(content, '{email}', ${JSON.stringify({ body })}::jsonb) WHERE id = ${survey.form.id}`);
    const name = '<img src=x onerror=alert(1)>';
    const base = `/v1/forms/${survey.form.id}/invites`;
    const created = await t.post(token, base, { email: 'eve@school.edu', name, externalId: '"A&1"', dims: { group: '<b>G1</b>' } });
    expect(created.statusCode, created.body).toBe(201);
    expect((await t.post(token, `${base}/send`, { channel: 'email' })).json().data).toMatchObject({ queued: 1 });
    const mail = await deliveredMail('eve@school.edu');
    const escapedName = '&lt;img src=x onerror=alert(1)&gt;';
    expect(mail.html).toContain(`Dear ${escapedName} (&quot;A&amp;1&quot;, &lt;b&gt;G1&lt;/b&gt;, ${escapedName}) ${escapedName}: `);
    expect(mail.html).not.toContain('<img');
    expect(mail.html).not.toContain('<b>');
    // The text part is not HTML: the values as they are.
    expect(mail.text).toContain(`Dear ${name} ("A&1", <b>G1</b>, ${name}) ${name}: `);
  });

  it('is refused at import with the path of an unknown variable, and the stored form is left as it was', async () => {
    const { company } = await t.tenant();
    await createSurvey(t, company.id);
    const error = await importForm(t.ctx.db, t.ctx, { companyId: company.id, rawJson: { ...SURVEY, email: { subject: 'Hi {{first_name}}' } } }).catch((err: unknown) => err);
    expect(error).toMatchObject({ code: 'VALIDATION_ERROR', details: { fields: [{ path: 'email.subject', code: 'unknown_reference' }] } });
    expect((await exportForm(t.ctx.db, t.ctx, { companyId: company.id, idOrSlug: SURVEY.slug })).email).toBeUndefined();
  });
});
