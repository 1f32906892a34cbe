import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { ParsedMail } from 'mailparser';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { SmtpSink } from '../../../test/smtp-sink.js';
import { createSurvey } from '../../../test/responses.js';
import { startOutboundLoop } from '../../platform/outbound/loop.js';
import { emailKind } from './email-kind.js';
import { smtpMailer } from './smtp-mailer.js';

// The invitation as a mail client reads it: parsed by mailparser from what an SMTP server received.
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
  await sink.close();
  await t.close();
});

interface Setup {
  companyName: string;
  settings?: Record<string, string>;
  language?: 'en' | 'pt-BR' | 'es';
  expiresAt?: string;
  email?: object;
}

/** One invite of a company set up as given, sent and received; the parsed mail and its form. */
async function invitation(setup: Setup): Promise<{ mail: ParsedMail; formName: string; url: string }> {
  const tenant = await t.tenant();
  await t.ctx.db.execute(sql`UPDATE companies SET name = ${setup.companyName}, settings = settings || ${JSON.stringify(setup.settings ?? {})}::jsonb WHERE id = ${tenant.company.id}`);
  const survey = await createSurvey(t, tenant.company.id);
  const content = setup.email ? sql`jsonb_set(content, '{email}', ${JSON.stringify(setup.email)}::jsonb)` : sql`content`;
  await t.ctx.db.execute(sql`UPDATE forms SET language = ${setup.language ?? null}, content = ${content} WHERE id = ${survey.form.id}`);
  const base = `/v1/forms/${survey.form.id}/invites`;
  const invite = (await t.post(tenant.token, base, { email: 'ana@school.edu', name: 'Ana', ...(setup.expiresAt ? { expiresAt: setup.expiresAt } : {}) })).json().data;
  const send = await t.post(tenant.token, `${base}/send`, { channel: 'email' });
  expect(send.json().data.queued).toBe(1);
  const loop = await startOutboundLoop(t.ctx, emailKind(t.ctx, smtpMailer(sink.url, { maxConnections: 1, timeoutMs: 5000 })), { listen: false, pollIntervalMs: null });
  await loop.drain();
  await loop.stop();
  expect(sink.received).toHaveLength(1);
  return { mail: sink.received[0], formName: survey.form.name, url: invite.url };
}

const ENTITIES: Record<string, string> = { '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'", '&amp;': '&' };

/** What a reader sees of the HTML part: the preheader left out, tags dropped, entities decoded, spaces collapsed. */
function visibleText(html: string): string {
  return html
    .replace(/<div style="display:none[^>]*>.*?<\/div>/s, '')
    .replace(/<(title)>.*?<\/\1>/s, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&(lt|gt|quot|#39|amp);/g, (entity) => ENTITIES[entity])
    .replace(/\s+/g, ' ')
    .trim();
}

const words = (text: string) => text.replace(/\s+/g, ' ').trim();
const preheader = (html: string) => /<div style="display:none[^>]*>(.*?)<\/div>/s.exec(html)?.[1];

describe('the invitation e-mail', () => {
  it('pt-BR: sent as the company from its own address on the deployment\'s domain; who, why and until when in Portuguese, in the company\'s zone', async () => {
    const { mail, formName, url } = await invitation({
      companyName: 'Escola Azul',
      settings: { mailFrom: 'Secretaria São Tomé <avisos@quorum.test>', timeZone: 'America/Sao_Paulo' },
      language: 'pt-BR',
      expiresAt: '2030-03-06T02:30:00Z',
    });
    // A name beyond ASCII arrives whole (an encoded word in the header).
    expect(mail.from?.value).toEqual([{ name: 'Secretaria São Tomé', address: 'avisos@quorum.test' }]);
    expect(mail.replyTo).toBeUndefined();
    expect(mail.subject).toBe(`Escola Azul pede sua resposta: ${formName}`);
    // 02:30 UTC on the 6th is 23:30 on the 5th in São Paulo.
    expect(words(mail.text!)).toContain(`Escola Azul convida você a responder "${formName}". Seu link pessoal: ${url} O link funciona até 5 de março de 2030 às 23:30.`);
    expect(mail.html).toContain('<html lang="pt-BR">');
    expect(preheader(mail.html as string)).toBe(`Escola Azul: ${formName}, até 5 de março de 2030 às 23:30`);
    expect(mail.html).toContain('>Abrir a pesquisa</a>');
  });

  it('en: a company address on another domain goes to Reply-To, the From address stays the deployment\'s (SPF/DMARC); the expiry reads in English', async () => {
    const { mail, formName } = await invitation({
      companyName: 'Blue School',
      settings: { mailFrom: 'Blue Office <office@blue.test>', timeZone: 'America/New_York' },
      language: 'en',
      expiresAt: '2030-03-06T02:30:00Z',
    });
    expect(mail.from?.value).toEqual([{ name: 'Blue Office', address: 'no-reply@quorum.test' }]);
    expect(mail.replyTo?.value).toEqual([{ name: 'Blue Office', address: 'office@blue.test' }]);
    expect(mail.subject).toBe(`Blue School asks for your answer: ${formName}`);
    expect(words(mail.text!)).toMatch(/The link works until March 5, 2030 at 9:30\sPM\./);
    expect(words(preheader(mail.html as string)!)).toMatch(new RegExp(`^Blue School: ${formName}, until March 5, 2030 at 9:30\\sPM$`));
  });

  it('without mailFrom: the company\'s name on the deployment\'s address; its name escaped in the HTML part and kept whole in the headers and text', async () => {
    const name = 'Azul <b>&amp; "Cia"';
    const { mail, formName } = await invitation({ companyName: name });
    expect(mail.from?.value).toEqual([{ name, address: 'no-reply@quorum.test' }]);
    expect(mail.replyTo).toBeUndefined();
    expect(mail.subject).toBe(`${name} asks for your answer: ${formName}`);
    expect(mail.text).toContain(`${name} invites you to answer`);
    const html = mail.html as string;
    expect(html).not.toContain('<b>');
    expect(html).toContain('Azul &lt;b&gt;&amp;amp; &quot;Cia&quot; invites you to answer');
    expect(html).toContain(`<title>Azul &lt;b&gt;&amp;amp; &quot;Cia&quot; asks for your answer: ${formName}</title>`);
    // No expiry: the sentence and the preheader's "until" are left out.
    expect(mail.text).not.toContain('until');
    expect(preheader(html)).toBe(`Azul &lt;b&gt;&amp;amp; &quot;Cia&quot;: ${formName}`);
  });

  it.each(['en', 'pt-BR', 'es'] as const)('%s: the plain-text part says what the HTML part shows', async (language) => {
    const { mail, url } = await invitation({ companyName: 'Escuela Verde', language, expiresAt: '2030-03-06T02:30:00Z' });
    const html = visibleText(mail.html as string);
    // Each line of the text part but the link (the HTML's button carries it) and the signature dash.
    const lines = mail.text!.split('\n').map((line) => line.replace(/: https?:\/\/\S+$/, '')).filter((line) => line && line !== '--' && line !== url);
    expect(lines.length).toBeGreaterThan(4);
    for (const line of lines) expect(html).toContain(words(line));
    expect(mail.html).toContain(`href="${url}"`);
    expect(mail.html).toContain(`<html lang="${language}">`);
  });

  it('carries the company\'s logo (served by Quorum at the pages\' address, its name as alt text) and its colour on the button; the default blue without', async () => {
    const { mail } = await invitation({ companyName: 'Escola Azul', settings: { brandColor: '#0f766e', logo: 'a'.repeat(64) + '.png' } });
    const html = mail.html as string;
    const companyId = /\/r\/logos\/([0-9a-f-]{36})\//.exec(html)?.[1];
    expect(html).toContain(`<img src="http://localhost:3000/r/logos/${companyId}/${'a'.repeat(64)}.png" alt="Escola Azul" height="48"`);
    expect(html).toContain('<td style="border-radius:4px;background:#0f766e">');
    expect(mail.text).not.toContain('/r/logos/');
    sink.received.length = 0;
    const plain = (await invitation({ companyName: 'Blue School' })).mail.html as string;
    expect(plain).not.toContain('<img');
    expect(plain).toContain('<td style="border-radius:4px;background:#1d4ed8">');
  });

  it('a form\'s own template may name {{company}}: the send-time check accepts it', async () => {
    const { mail, formName } = await invitation({ companyName: 'Escola Azul', email: { subject: '{{company}}: {{formName}}', body: 'De {{company}}: {{url}}' } });
    expect(mail.subject).toBe(`Escola Azul: ${formName}`);
    expect(mail.text).toMatch(/^De Escola Azul: http/);
  });
});
