import { randomBytes } from 'node:crypto';
import type { InjectOptions } from 'fastify';
import type { TestApp } from './harness.js';
import { allQuestionTypesExample } from './forms.js';
import { findForm, type FormRecord } from '../src/features/forms/find-form.js';
import { importForm } from '../src/features/forms/import-form.js';
import { createInvite } from '../src/features/invites/create-invite.js';
import type { CreateInviteInput } from '../src/features/invites/schemas.js';
import type { InviteRow } from '../src/features/invites/invite-view.js';
import { questionsOf } from '../src/features/forms/definition/tree.js';

/** Helpers of the respondent surface's tests: forms by question key, invites, multipart bodies. */

export interface KeyedForm {
  form: FormRecord;
  /** question key → id */
  q: Record<string, string>;
  /** question key → option (or matrix row/column) key → id */
  option(questionKey: string, key: string): string;
  row(questionKey: string, key: string): string;
  column(questionKey: string, key: string): string;
}

export async function keyedForm(t: TestApp, companyId: string, definition: Record<string, unknown>): Promise<KeyedForm> {
  const { id } = await importForm(t.ctx.db, t.ctx, { companyId, rawJson: definition });
  const form = (await findForm(t.ctx.db, t.ctx, { companyId, id }))!;
  const questions = questionsOf(form.content);
  const byKey = new Map(questions.map((question) => [question.key, question]));
  const pick = (list: 'options' | 'rows' | 'columns') => (questionKey: string, key: string) => byKey.get(questionKey)![list]!.find((choice) => choice.key === key)!.id;
  return { form, q: Object.fromEntries(questions.map((question) => [question.key, question.id])), option: pick('options'), row: pick('rows'), column: pick('columns') };
}

/** The documented example (every question type, sections and conditions) under a fresh slug. */
export function everyTypeForm(t: TestApp, companyId: string, settings: Record<string, boolean> = {}): Promise<KeyedForm> {
  const example = allQuestionTypesExample();
  return keyedForm(t, companyId, { ...example, slug: `every-${randomBytes(3).toString('hex')}`, settings: { ...example.settings, ...settings } });
}

export function invite(t: TestApp, companyId: string, formId: string, input: Partial<CreateInviteInput> = {}): Promise<InviteRow> {
  return createInvite(t.ctx.db, t.ctx, { companyId, formId, email: `p-${randomBytes(4).toString('hex')}@school.edu`, name: 'Ana Souza', ...input });
}

let addresses = 0;
/** A client address of its own, so one test's requests never spend another's rate limit. */
export function clientAddress(): string {
  addresses += 1;
  return `10.${(addresses >> 16) & 255}.${(addresses >> 8) & 255}.${addresses & 255}`;
}

/** A respondent request (no key) from one client address. */
export function respondentClient(t: TestApp, remoteAddress = clientAddress()) {
  const call = (opts: InjectOptions) => t.request(null, { remoteAddress, ...opts });
  return {
    call,
    get: (url: string, headers: Record<string, string> = {}) => call({ method: 'GET', url, headers }),
    put: (url: string, payload: unknown) => call({ method: 'PUT', url, payload: payload as object }),
    post: (url: string, payload: unknown) => call({ method: 'POST', url, payload: payload as object }),
    upload: (url: string, file: { name: string; mime: string; data: Buffer }) => call({ method: 'POST', url, ...multipart(file) }),
  };
}

/** A multipart/form-data body with one file part. */
export function multipart(file: { name: string; mime: string; data: Buffer }, field = 'file') {
  const boundary = `----quorum${randomBytes(8).toString('hex')}`;
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${file.name}"\r\nContent-Type: ${file.mime}\r\n\r\n`;
  return {
    payload: Buffer.concat([Buffer.from(head), file.data, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

export const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(200)]);
