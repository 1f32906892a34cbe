import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';
import { axeViolations, launchChromium } from './chromium.js';
import { startTestApp, type TestApp, type TestAppOptions } from './harness.js';
import { findForm, type FormRecord } from '../src/features/forms/find-form.js';
import { importForm } from '../src/features/forms/import-form.js';

/**
 * A form with three sections and conditions: a question revealed inside its own section
 * (missed, when attended is No), a section shown by an answer (online, when campus is Online),
 * and a last section with a star rating, a ranking, a matrix and a paragraph.
 */
export function steppedForm(extra: Record<string, unknown> = {}) {
  return {
    slug: 'stepped',
    name: 'Term feedback',
    settings: { isPublic: true, language: 'en' },
    sections: [
      {
        key: 'about',
        name: 'About you',
        questions: [
          { key: 'campus', name: 'Where do you study?', type: 'RADIO', mandatory: true, options: [{ key: 'north', name: 'North campus' }, { key: 'online', name: 'Online' }] },
          { key: 'attended', name: 'Did you attend most classes?', type: 'BOOLEAN', mandatory: true },
          { key: 'missed', name: 'How many classes did you miss?', type: 'NUMBER', min: 0, max: 100, mandatory: true, visibleIf: { question: 'attended', equals: false } },
        ],
      },
      {
        key: 'online',
        name: 'Online experience',
        visibleIf: { question: 'campus', equals: 'online' },
        questions: [{ key: 'platform', name: 'Which platform did you use?', type: 'TEXT', mandatory: true }],
      },
      {
        key: 'course',
        name: 'The course',
        questions: [
          { key: 'overall', name: 'Overall rating', type: 'STAR', max: 5, mandatory: true },
          { key: 'topics', name: 'Rank the topics', type: 'RANKING', options: [{ key: 'theory', name: 'Theory' }, { key: 'labs', name: 'Labs' }, { key: 'projects', name: 'Projects' }] },
          {
            key: 'teacher',
            name: 'Rate your teacher',
            type: 'MATRIX',
            rows: [{ key: 'clarity', name: 'Clarity' }, { key: 'support', name: 'Support' }],
            columns: [{ key: 'poor', name: 'Poor' }, { key: 'fair', name: 'Fair' }, { key: 'good', name: 'Good' }, { key: 'excellent', name: 'Excellent' }],
          },
          { key: 'comment', name: 'Anything else?', type: 'PARAGRAPH' },
        ],
      },
    ],
    ...extra,
  };
}

/** Question (and option, row, column) ids of a stored form by key. */
/** The stepped form's translations: Portuguese whole, piping included; Spanish lacks most texts (so it is not offered). */
export const STEPPED_TRANSLATIONS = {
  'pt-BR': {
    name: 'Avaliação do período',
    thankYou: 'Obrigado pelas respostas!',
    sections: { about: { name: 'Sobre você' }, online: { name: 'Experiência online' }, course: { name: 'O curso ({{answer.campus}})' } },
    questions: {
      campus: { name: 'Onde você estuda?', options: { north: 'Campus Norte', online: 'A distância' } },
      attended: { name: 'Você assistiu à maioria das aulas?' },
      missed: { name: 'Quantas aulas você perdeu?' },
      platform: { name: 'Qual plataforma você usou?' },
      overall: { name: 'Nota geral' },
      topics: { name: 'Ordene os temas', options: { theory: 'Teoria', labs: 'Laboratórios', projects: 'Projetos' } },
      teacher: { name: 'Avalie seu professor', rows: { clarity: 'Clareza', support: 'Apoio' }, columns: { poor: 'Ruim', fair: 'Regular', good: 'Bom', excellent: 'Excelente' } },
      comment: { name: 'Mais alguma coisa?' },
    },
  },
  es: { name: 'Evaluación del período', questions: { campus: { name: '¿Dónde estudia?' } } },
};

export function idsByKey(form: FormRecord) {
  const questions = form.content.sections.flatMap((s) => s.questions);
  const q = Object.fromEntries(questions.map((question) => [question.key, question]));
  const option = (questionKey: string, key: string) => [...(q[questionKey].options ?? []), ...(q[questionKey].rows ?? []), ...(q[questionKey].columns ?? [])].find((c) => c.key === key)!.id;
  return { q: (key: string) => q[key].id, option };
}

/** The answers both walk-through tests give (Online, missed 3 classes, Moodle, 4 stars, a ranking, one matrix row), as stored. */
export function walkedAnswers({ q, option }: ReturnType<typeof idsByKey>): Record<string, unknown> {
  return {
    [q('campus')]: option('campus', 'online'),
    [q('attended')]: false,
    [q('missed')]: 3,
    [q('platform')]: 'Moodle',
    [q('overall')]: 4,
    [q('topics')]: [option('topics', 'labs'), option('topics', 'projects'), option('topics', 'theory')],
    [q('teacher')]: { [option('teacher', 'clarity')]: option('teacher', 'good') },
  };
}

export async function createSteppedForm(t: TestApp, companyId: string, extra: Record<string, unknown> = {}) {
  const { id } = await importForm(t.ctx.db, t.ctx, { companyId, rawJson: steppedForm(extra) });
  const form = (await findForm(t.ctx.db, t.ctx, { companyId, id }))!;
  return { form, ...idsByKey(form) };
}

/** An invite of the form through the API; returns its token and id. */
export async function createInvite(t: TestApp, apiToken: string, formId: string, body: Record<string, unknown> = { name: 'Ana', email: 'ana@school.test' }) {
  const res = await t.post(apiToken, `/v1/forms/${formId}/invites`, body);
  if (res.statusCode !== 201) throw new Error(`invite: ${res.statusCode} ${res.body}`);
  const invite = res.json().data as { id: string; token: string };
  return invite;
}

/** Whether an invite is opened, as an API client sees it: its stored status and its invite.opened events. */
export async function openState(t: TestApp, apiToken: string, formId: string, inviteId: string) {
  const invites = await t.get(apiToken, `/v1/forms/${formId}/invites?limit=100`);
  const events = await t.get(apiToken, '/v1/events?type=invite.opened&limit=100');
  if (invites.statusCode !== 200 || events.statusCode !== 200) throw new Error(`open state: ${invites.statusCode} ${events.statusCode}`);
  const status = (invites.json().data as { id: string; status: string }[]).find((invite) => invite.id === inviteId)?.status;
  const opens = (events.json().data as { data: { inviteId: string } }[]).filter((event) => event.data.inviteId === inviteId).length;
  return { status, opens };
}

/** The cookie pair a response sets (name=value; …), for the next request as a browser would send it. */
export function cookiesOf(res: { headers: Record<string, unknown> }): string {
  return [res.headers['set-cookie']].flat().filter(Boolean).map((c) => String(c).split(';')[0]).join('; ');
}

/** Post/Redirect/Get: a section POST answers 303; the GET it names (with the page's cookie) shows the outcome. */
export async function follow(t: TestApp, res: { statusCode: number; headers: Record<string, unknown> }) {
  if (res.statusCode !== 303) throw new Error(`expected 303 from the POST, got ${res.statusCode}`);
  const cookie = cookiesOf(res);
  return t.app.inject({ url: String(res.headers.location), headers: cookie ? { cookie } : {} });
}

/** Where the respondent pages' browser tests keep their screenshots. */
export const SCREENSHOTS = 'artifacts/screenshots';

export interface RespondentBrowser {
  t: TestApp;
  browser: Browser;
  /** The listening app's origin, http://127.0.0.1:PORT. */
  origin: string;
  /** A company with an all-scopes key. */
  tenant: Awaited<ReturnType<TestApp['tenant']>>;
  close(): Promise<void>;
}

/** The respondent pages' browser bench: the real app listening on a free port, Debian's Chromium and a company. */
export async function startRespondentBrowser(options: TestAppOptions = {}): Promise<RespondentBrowser> {
  const t = await startTestApp(options);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const browser = await launchChromium();
  const tenant = await t.tenant();
  mkdirSync(SCREENSHOTS, { recursive: true });
  return {
    t,
    browser,
    origin,
    tenant,
    async close() {
      await browser.close();
      await t.close();
    },
  };
}

/**
 * axe finds nothing on a respondent page. axe runs as a script in the page, so a page without
 * JavaScript is audited as a copy of its markup in a scripted page of the same size.
 */
export async function expectAxeClean(browser: Browser, page: Page, name: string, javaScriptEnabled: boolean): Promise<void> {
  if (javaScriptEnabled) return expect(await axeViolations(page), name).toEqual([]);
  const copy = await browser.newContext({ viewport: page.viewportSize() ?? undefined, locale: 'en-US' });
  const audited = await copy.newPage();
  await audited.setContent(await page.content());
  expect(await axeViolations(audited), name).toEqual([]);
  await copy.close();
}
