import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { createSurvey, SURVEY } from '../../../test/responses.js';
import { exportForm } from '../forms/export-form.js';
import { importForm } from '../forms/import-form.js';
import { devMailbox, listDevMail } from '../messaging/dev-mailbox.js';
import { emailKind } from '../messaging/email-kind.js';
import { startOutboundLoop } from '../outbound/loop.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

const EMAIL = {
  subject: '{{formName}}: {{name}}, your turn',
  body: 'Dear {{name}},\n{{#externalId}}Student {{externalId}}\n{{/externalId}}Answer here: {{url}}',
};

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
    const loop = await startOutboundLoop(t.ctx, emailKind(t.ctx, devMailbox(t.ctx.db, t.ctx)), { listen: false, pollIntervalMs: null });
    try {
      await loop.drain();
    } finally {
      await loop.stop();
    }
    const mail = (await listDevMail(t.ctx.db, t.ctx)).find((m) => m.to === 'ana@school.edu')!;
    expect(mail.subject).toBe('Course survey: Ana, your turn');
    expect(mail.text).toContain(`Dear Ana,\nStudent A-1\nAnswer here: ${ana.url}`);

    const detail = await t.get(token, `/v1/forms/${survey.form.id}`);
    expect(detail.statusCode).toBe(200);
    expect(detail.body).not.toContain('your turn');
  });

  it('is refused at import with the path of an unknown variable, and the stored form is left as it was', async () => {
    const { company } = await t.tenant();
    await createSurvey(t, company.id);
    const error = await importForm(t.ctx.db, t.ctx, { companyId: company.id, rawJson: { ...SURVEY, email: { subject: 'Hi {{first_name}}' } } }).catch((err: unknown) => err);
    expect(error).toMatchObject({ code: 'VALIDATION_ERROR', details: { fields: [{ path: 'email.subject', code: 'unknown_reference' }] } });
    expect((await exportForm(t.ctx.db, t.ctx, { companyId: company.id, idOrSlug: SURVEY.slug })).email).toBeUndefined();
  });
});
