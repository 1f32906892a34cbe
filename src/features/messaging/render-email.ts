import Mustache from 'mustache';
import { htmlEscaping } from '../../lib/html.js';
import type { EmailTemplate } from '../message-channels/index.js';
import { BRAND_COLOR_RE } from '../companies/index.js';

export interface MessageVariables {
  /** The sending company's name. */
  company: string;
  name: string | null;
  email: string | null;
  phone: string | null;
  externalId: string | null;
  url: string;
  formName: string;
  /** The invite's expiry as a readable date (readableExpiry), null when it has none. */
  expiresAt: string | null;
  dims: Record<string, string>;
}

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
}

const asHtml = htmlEscaping;

/** The message's own words around the template, in each language a form may have. */
interface Chrome {
  /** Preview text mail clients show beside the subject: who asks, why, until when. */
  preheader: string;
  button: string;
  unsubscribe: string;
}

const CHROME: Readonly<Record<string, Chrome>> = {
  en: { preheader: '{{company}}: {{formName}}{{#expiresAt}}, until {{expiresAt}}{{/expiresAt}}', button: 'Open the survey', unsubscribe: 'Unsubscribe from these messages' },
  'pt-BR': { preheader: '{{company}}: {{formName}}{{#expiresAt}}, até {{expiresAt}}{{/expiresAt}}', button: 'Abrir a pesquisa', unsubscribe: 'Cancelar o recebimento destas mensagens' },
  es: { preheader: '{{company}}: {{formName}}{{#expiresAt}}, hasta {{expiresAt}}{{/expiresAt}}', button: 'Abrir la encuesta', unsubscribe: 'Darse de baja de estos mensajes' },
};

/** Plain-text rendering: no escaping (the subject and the text part are not HTML). */
export function renderText(template: string, vars: MessageVariables): string {
  return Mustache.render(template, vars, {}, { escape: (value: unknown) => String(value) });
}

// A single-column table layout with inline styles: what mail clients (Outlook included) render
// alike. Every value reaches it through Mustache's HTML escaping; only bodyHtml, built below from
// escaped paragraphs, is inserted raw.
const LAYOUT = `<!DOCTYPE html>
<html lang="{{lang}}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>{{subject}}</title></head>
<body style="margin:0;padding:0;background:#f4f5f7">
<div style="display:none;max-height:0;overflow:hidden;mso-hide:all">{{preheader}}</div>
<table role="presentation" width="100%" cellspacing="0" cellpadding="0" border="0" style="background:#f4f5f7"><tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="600" cellspacing="0" cellpadding="0" border="0" style="max-width:600px;width:100%;background:#ffffff;border-radius:6px">
{{#logoUrl}}<tr><td style="padding:24px 32px 0"><img src="{{logoUrl}}" alt="{{company}}" height="48" style="display:block;height:48px;width:auto;max-width:200px;border:0"></td></tr>{{/logoUrl}}
<tr><td style="padding:32px 32px 8px;font-family:Arial,Helvetica,sans-serif;font-size:16px;line-height:24px;color:#1f2933">{{{bodyHtml}}}</td></tr>
<tr><td align="center" style="padding:8px 32px 32px">
<table role="presentation" cellspacing="0" cellpadding="0" border="0"><tr><td style="border-radius:4px;background:{{accent}}">
<a href="{{url}}" style="display:inline-block;padding:12px 24px;font-family:Arial,Helvetica,sans-serif;font-size:16px;color:#ffffff;text-decoration:none">{{button}}</a>
</td></tr></table></td></tr>
<tr><td style="padding:0 32px 24px;font-family:Arial,Helvetica,sans-serif;font-size:12px;line-height:18px;color:#6b7280">
<a href="{{unsubscribeUrl}}" style="color:#6b7280">{{unsubscribe}}</a></td></tr>
</table></td></tr></table></body></html>`;

/** Every value HTML-escaped (null stays null). */
const escapeAll = <T extends Record<string, string | null>>(values: T): T =>
  Object.fromEntries(Object.entries(values).map(([key, value]) => [key, value === null ? null : asHtml.escape(value)])) as T;

const escapedVariables = ({ dims, ...contact }: MessageVariables): MessageVariables => ({ ...escapeAll(contact), dims: escapeAll(dims) });

/**
 * The body in HTML, blank lines to paragraphs, single newlines to breaks. The values are escaped
 * before rendering, not by Mustache's tag escaping: {{{name}}} and {{& name}} in a form stored
 * before the import refused them would otherwise print the invitee's data raw.
 */
function bodyHtml(template: string, vars: MessageVariables): string {
  return renderText(template, escapedVariables(vars))
    .split(/\n{2,}/)
    .map((paragraph) => `<p style="margin:0 0 16px">${paragraph.replace(/\n/g, '<br>')}</p>`)
    .join('\n');
}

const oneLine = (text: string) => text.replace(/[\r\n]+/g, ' ').trim();

/** The company's look in its messages: its colour (AA on white, checked when saved) and its logo's absolute URL. */
export interface EmailBrand {
  color: string | null;
  logoUrl: string | null;
}

const DEFAULT_ACCENT = '#1d4ed8';

/**
 * The message in `language` (en when unknown): the subject, a plain-text part and an HTML part of
 * the same words (the HTML adds only the hidden preheader, the company's logo and the link as a
 * button in the company's colour).
 */
export function renderEmail(template: EmailTemplate, vars: MessageVariables, unsubscribeUrl: string, language = 'en', brand: EmailBrand = { color: null, logoUrl: null }): RenderedEmail {
  const chrome = CHROME[language] ?? CHROME.en;
  const subject = oneLine(renderText(template.subject, vars));
  const preheader = oneLine(renderText(chrome.preheader, vars));
  const text = `${renderText(template.body, vars)}\n\n--\n${chrome.unsubscribe}: ${unsubscribeUrl}\n`;
  const accent = brand.color && BRAND_COLOR_RE.test(brand.color) ? brand.color : DEFAULT_ACCENT;
  const view = {
    lang: CHROME[language] ? language : 'en', subject, preheader, url: vars.url, unsubscribeUrl, button: chrome.button, unsubscribe: chrome.unsubscribe, bodyHtml: bodyHtml(template.body, vars),
    company: vars.company, logoUrl: brand.logoUrl, accent,
  };
  return { subject, text, html: Mustache.render(LAYOUT, view, {}, asHtml) };
}
