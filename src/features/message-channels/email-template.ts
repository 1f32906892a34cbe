import type { FormLanguage, FormRecord } from '../forms/index.js';

export interface EmailTemplate {
  subject: string;
  body: string;
}

/**
 * The default invitation in each language a form may have: who asks (company), why (formName)
 * and until when (expiresAt, a readable date in the form's language and the company's zone).
 */
export const DEFAULT_EMAIL_TEMPLATES: Readonly<Record<FormLanguage, EmailTemplate>> = {
  en: {
    subject: '{{company}} asks for your answer: {{formName}}',
    body:
      'Hello{{#name}} {{name}}{{/name}},\n\n' +
      '{{company}} invites you to answer "{{formName}}". Your personal link:\n\n{{url}}\n\n' +
      '{{#expiresAt}}The link works until {{expiresAt}}.\n\n{{/expiresAt}}' +
      'The link is personal: please do not forward it.',
  },
  'pt-BR': {
    subject: '{{company}} pede sua resposta: {{formName}}',
    body:
      'Olá{{#name}} {{name}}{{/name}},\n\n' +
      '{{company}} convida você a responder "{{formName}}". Seu link pessoal:\n\n{{url}}\n\n' +
      '{{#expiresAt}}O link funciona até {{expiresAt}}.\n\n{{/expiresAt}}' +
      'O link é pessoal: por favor, não o encaminhe.',
  },
  es: {
    subject: '{{company}} te pide tu respuesta: {{formName}}',
    body:
      'Hola{{#name}} {{name}}{{/name}}:\n\n' +
      '{{company}} te invita a responder "{{formName}}". Tu enlace personal:\n\n{{url}}\n\n' +
      '{{#expiresAt}}El enlace funciona hasta {{expiresAt}}.\n\n{{/expiresAt}}' +
      'El enlace es personal: por favor, no lo reenvíes.',
  },
};

/** The form definition's `email: { subject, body }` in the form's language, each part falling back to the default. */
export function formEmailTemplate(form: Pick<FormRecord, 'content' | 'language'>): EmailTemplate {
  return emailTemplate((form.content as { email?: unknown }).email, form.language ?? 'en');
}

/** A form definition's `email` block (as stored, possibly absent), each part falling back to the default invitation of `language`. */
export function emailTemplate(block: unknown, language: FormLanguage): EmailTemplate {
  return withFallback(block, DEFAULT_EMAIL_TEMPLATES[language] ?? DEFAULT_EMAIL_TEMPLATES.en);
}

function withFallback(block: unknown, fallback: EmailTemplate): EmailTemplate {
  const custom = block as Partial<EmailTemplate> | null | undefined;
  return {
    subject: typeof custom?.subject === 'string' && custom.subject.trim() ? custom.subject : fallback.subject,
    body: typeof custom?.body === 'string' && custom.body.trim() ? custom.body : fallback.body,
  };
}

/** What a message is: the invitation, or a reminder of a schedule (features/reminders). */
export type MessagePurpose = 'invitation' | 'reminder';

/** The default reminder in each language a form may have: like the invitation, it says who asks (company), why and until when. */
export const DEFAULT_REMINDER_TEMPLATES: Readonly<Record<FormLanguage, EmailTemplate>> = {
  en: {
    subject: 'Reminder from {{company}}: {{formName}}',
    body:
      'Hello{{#name}} {{name}}{{/name}},\n\n' +
      '{{company}} has not received your answer to "{{formName}}" yet. It takes a few minutes:\n\n{{url}}\n\n' +
      '{{#expiresAt}}The link works until {{expiresAt}}.\n\n{{/expiresAt}}' +
      'The link is personal: please do not forward it.',
  },
  'pt-BR': {
    subject: 'Lembrete de {{company}}: {{formName}}',
    body:
      'Olá{{#name}} {{name}}{{/name}},\n\n' +
      '{{company}} ainda não recebeu sua resposta para "{{formName}}". Leva poucos minutos:\n\n{{url}}\n\n' +
      '{{#expiresAt}}O link funciona até {{expiresAt}}.\n\n{{/expiresAt}}' +
      'O link é pessoal: por favor, não o encaminhe.',
  },
  es: {
    subject: 'Recordatorio de {{company}}: {{formName}}',
    body:
      'Hola{{#name}} {{name}}{{/name}}:\n\n' +
      '{{company}} todavía no ha recibido tu respuesta a "{{formName}}". Solo lleva unos minutos:\n\n{{url}}\n\n' +
      '{{#expiresAt}}El enlace funciona hasta {{expiresAt}}.\n\n{{/expiresAt}}' +
      'El enlace es personal: por favor, no lo reenvíes.',
  },
};

/** A form definition's `reminder` block (as stored, possibly absent), each part falling back to the default reminder of `language`. */
export function reminderTemplate(block: unknown, language: FormLanguage): EmailTemplate {
  return withFallback(block, DEFAULT_REMINDER_TEMPLATES[language] ?? DEFAULT_REMINDER_TEMPLATES.en);
}

/** The form definition's `reminder: { subject, body }` in the form's language (English when it names none). */
export function formReminderTemplate(form: Pick<FormRecord, 'content' | 'language'>): EmailTemplate {
  return reminderTemplate((form.content as { reminder?: unknown }).reminder, form.language ?? 'en');
}
