import type { FormRecord } from '../forms/index.js';

export interface EmailTemplate {
  subject: string;
  body: string;
}

/** The default invitation: needs nothing but the link and the form's name. */
export const DEFAULT_EMAIL_TEMPLATE: EmailTemplate = {
  subject: 'Your invitation: {{formName}}',
  body:
    'Hello{{#name}} {{name}}{{/name}},\n\n' +
    'You are invited to answer "{{formName}}". Your personal link:\n\n{{url}}\n\n' +
    '{{#expiresAt}}The link works until {{expiresAt}}.\n\n{{/expiresAt}}' +
    'The link is personal: please do not forward it.',
};

/** The form definition's `email: { subject, body }`, each part falling back to the default. */
export function formEmailTemplate(form: Pick<FormRecord, 'content'>): EmailTemplate {
  return emailTemplate((form.content as { email?: unknown }).email);
}

/** A form definition's `email` block (as stored, possibly absent), each part falling back to the default. */
export function emailTemplate(block: unknown): EmailTemplate {
  const custom = block as Partial<EmailTemplate> | null | undefined;
  return {
    subject: typeof custom?.subject === 'string' && custom.subject.trim() ? custom.subject : DEFAULT_EMAIL_TEMPLATE.subject,
    body: typeof custom?.body === 'string' && custom.body.trim() ? custom.body : DEFAULT_EMAIL_TEMPLATE.body,
  };
}
