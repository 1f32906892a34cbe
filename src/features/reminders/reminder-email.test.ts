import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { ParsedMail } from 'mailparser';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { createSurvey } from '../../../test/responses.js';
import { SmtpSink } from '../../../test/smtp-sink.js';
import { emailKind } from '../messaging/email-kind.js';
import { smtpMailer } from '../messaging/smtp-mailer.js';
import { startOutboundLoop } from '../../platform/outbound/loop.js';
import { sendReminders, setReminderSchedule } from './index.js';

// The reminder as a mail client reads it (parsed by mailparser from what an SMTP server received):
// sent as the company, like the invitation, and saying who asks.
let t: TestApp;
let sink: SmtpSink;
beforeAll(async () => {
  t = await startTestApp({ config: { mailFrom: 'Quorum <no-reply@quorum.test>' } });
  sink = new SmtpSink();
  await sink.start();
});
afterEach(() => {
  sink.received.length = 0;
});
afterAll(async () => {
  await sink?.close();
  await t?.close();
});

async function drain(): Promise<ParsedMail[]> {
  const loop = await startOutboundLoop(t.ctx, emailKind(t.ctx, smtpMailer(sink.url, { maxConnections: 1, timeoutMs: 5000 })), { listen: false, pollIntervalMs: null });
  await loop.drain();
  await loop.stop();
  const received = [...sink.received];
  sink.received.length = 0;
  return received;
}

interface Setup {
  companyName: string;
  settings?: Record<string, string>;
  language?: 'en' | 'pt-BR' | 'es';
  reminder?: object;
}

/** A company set up as given invites Ana on Monday (UTC), reminds her on Tuesday: the reminder as received. */
async function reminder(setup: Setup): Promise<{ mail: ParsedMail; formName: string; url: string }> {
  t.clock.set(new Date('2026-03-02T09:00:00Z'));
  const tenant = await t.tenant();
  const companyId = tenant.company.id;
  await t.ctx.db.execute(sql`UPDATE companies SET name = ${setup.companyName}, settings = settings || ${JSON.stringify(setup.settings ?? {})}::jsonb WHERE id = ${companyId}`);
  const survey = await createSurvey(t, companyId);
  const content = setup.reminder ? sql`jsonb_set(content, '{reminder}', ${JSON.stringify(setup.reminder)}::jsonb)` : sql`content`;
  await t.ctx.db.execute(sql`UPDATE forms SET language = ${setup.language ?? null}, content = ${content} WHERE id = ${survey.form.id}`);
  const base = `/v1/forms/${survey.form.id}/invites`;
  const invite = (await t.post(tenant.token, base, { email: 'ana@school.edu', name: 'Ana', expiresAt: '2030-03-06T02:30:00Z' })).json().data;
  expect((await t.post(tenant.token, `${base}/send`, { channel: 'email' })).json().data.queued).toBe(1);
  expect((await drain()).map((m) => m.subject)).toHaveLength(1);
  await setReminderSchedule(t.ctx.db, t.ctx, { companyId, formId: survey.form.id, channel: 'email', afterDays: 1, maxReminders: 1, localHour: 9, finalDaysBefore: null, template: null });
  t.clock.set(new Date('2026-03-03T10:00:00Z'));
  expect(await sendReminders(t.ctx.db, t.ctx, { companyId })).toBe(1);
  const received = await drain();
  expect(received).toHaveLength(1);
  return { mail: received[0], formName: survey.form.name, url: invite.url };
}

const words = (text: string) => text.replace(/\s+/g, ' ').trim();
const preheader = (html: string) => /<div style="display:none[^>]*>(.*?)<\/div>/s.exec(html)?.[1];

const SAYS: Record<'en' | 'pt-BR' | 'es', { subject: string; body: string }> = {
  en: { subject: 'Reminder from Escola Azul: ', body: 'Escola Azul has not received your answer to' },
  'pt-BR': { subject: 'Lembrete de Escola Azul: ', body: 'Escola Azul ainda não recebeu sua resposta para' },
  es: { subject: 'Recordatorio de Escola Azul: ', body: 'Escola Azul todavía no ha recibido tu respuesta a' },
};

describe('the reminder e-mail', () => {
  it.each(['en', 'pt-BR', 'es'] as const)('%s: from the company (its address on another domain as Reply-To), naming it in the subject, body and preheader', async (language) => {
    const { mail, formName, url } = await reminder({ companyName: 'Escola Azul', settings: { mailFrom: 'Secretaria <avisos@azul.test>' }, language });
    // The invitation's rule: the deployment's address (SPF/DMARC) under the company's name, answers to the company.
    expect(mail.from?.value).toEqual([{ name: 'Secretaria', address: 'no-reply@quorum.test' }]);
    expect(mail.replyTo?.value).toEqual([{ name: 'Secretaria', address: 'avisos@azul.test' }]);
    expect(mail.subject).toBe(`${SAYS[language].subject}${formName}`);
    expect(words(mail.text!)).toContain(`${SAYS[language].body} "${formName}"`);
    expect(mail.text).toContain(url);
    expect(mail.html).toContain(`<html lang="${language}">`);
    expect(preheader(mail.html as string)).toMatch(new RegExp(`^Escola Azul: ${formName}, `));
    expect(words(mail.html as string)).toContain(`${SAYS[language].body} "${formName}"`);
  });

  it('without mailFrom: the company\'s name on the deployment\'s address, no Reply-To', async () => {
    const { mail, formName } = await reminder({ companyName: 'Blue School' });
    expect(mail.from?.value).toEqual([{ name: 'Blue School', address: 'no-reply@quorum.test' }]);
    expect(mail.replyTo).toBeUndefined();
    expect(mail.subject).toBe(`Reminder from Blue School: ${formName}`);
  });

  it('a form\'s own reminder may name {{company}}', async () => {
    const { mail, formName } = await reminder({ companyName: 'Escola Azul', reminder: { subject: '{{company}} lembra: {{formName}}', body: 'De {{company}}: {{url}}' } });
    expect(mail.subject).toBe(`Escola Azul lembra: ${formName}`);
    expect(mail.text).toMatch(/^De Escola Azul: http/);
  });
});
