/**
 * The form builder with a 200-question form, in Chromium against the real service and database:
 * - time to interactive: from navigation to /panel/forms/{id} until the 200th question's text field
 *   is enabled and the preview frame shows the form (its first section drawn by the server);
 * - change to preview: from typing a new text into the first question until the preview frame
 *   shows it (the builder's 600 ms pause after typing, the preview call, the frame's load).
 * The yardstick, in the same run and alternated with it: the same builder with a 20-question form.
 * Beside both, the preview call alone (POST /panel/api/forms/{id}/preview of the saved definition,
 * as the builder sends it). Each is the median of BENCH_RUNS (default 5) fresh browser contexts.
 * Needs `dist/panel` (`npm run build`) and /usr/bin/chromium; BENCH_DATABASE_URL names the
 * database (created and migrated when missing); BENCH_PROFILE=<dir> records the first change of
 * the 200-question form as a Chrome CPU profile there.
 */
import { writeFileSync } from 'node:fs';
import { freePort } from '../test/free-port.js';
import { join } from 'node:path';
import { buildApp } from '../src/platform/app/build-app.js';
import { loadConfig } from '../src/platform/config.js';
import { createContext } from '../src/platform/context.js';
import { createCompany } from '../src/features/companies/index.js';
import { importForm } from '../src/features/forms/index.js';
import { addMembership } from '../src/features/memberships/index.js';
import { createUser, startSession } from '../src/features/sessions/index.js';
import { launchChromium } from '../test/chromium.js';
import { benchDatabase, benchDatabaseUrl, printTable } from './support.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const PROFILE_DIR = process.env.BENCH_PROFILE;
const QUESTIONS = 200;
/** The yardstick: the same builder with a tenth of the questions, measured in the same run. */
const SMALL = 20;
const TYPES = ['TEXT', 'PARAGRAPH', 'NUMBER', 'RADIO', 'CHECKBOX', 'BOOLEAN', 'NPS', 'MATRIX'] as const;

/** `questions` (200 by default) over sections of 20, of eight types, every fifth with a condition on the one before. */
export function builderForm(slug: string, questions = QUESTIONS) {
  const question = (n: number) => {
    const type = TYPES[n % TYPES.length];
    const key = `q${n}`;
    const base = { key, name: `Question ${n}`, type };
    const options = [{ key: 'A', name: 'Yes' }, { key: 'B', name: 'No' }, { key: 'C', name: 'Maybe' }];
    const shaped =
      type === 'RADIO' || type === 'CHECKBOX'
        ? { ...base, options }
        : type === 'MATRIX'
          ? { ...base, rows: [{ key: 'r1', name: 'Row one' }, { key: 'r2', name: 'Row two' }], columns: [{ key: 'c1', name: 'Good' }, { key: 'c2', name: 'Bad' }] }
          : base;
    return n % 5 === 4 && n % 20 !== 0 ? { ...shaped, visibleIf: { question: `q${n - 1}`, answered: true } } : shaped;
  };
  return {
    slug,
    name: 'Builder bench',
    sections: Array.from({ length: Math.ceil(questions / 20) }, (_, s) => ({ key: `s${s}`, name: `Section ${s + 1}`, questions: Array.from({ length: Math.min(20, questions - s * 20) }, (_, q) => question(s * 20 + q)) })),
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export async function run(): Promise<void> {
  const url = benchDatabaseUrl('quorum_bench_builder').toString();
  const database = await benchDatabase('quorum_bench_builder');
  await database.pool.end();
  const ctx = await createContext({ ...loadConfig(), databaseUrl: url, redisUrl: null, logLevel: 'silent' });
  const stamp = Date.now().toString(36);
  const company = await createCompany(ctx.db, ctx, { slug: `builder-${stamp}`, name: 'Builder bench' });
  const forms = {
    large: (await importForm(ctx.db, ctx, { companyId: company.id, rawJson: builderForm(`bench-${stamp}`) })).id,
    small: (await importForm(ctx.db, ctx, { companyId: company.id, rawJson: builderForm(`bench-small-${stamp}`, SMALL) })).id,
  };
  const user = await createUser(ctx.db, ctx, { email: `builder-${stamp}@bench.test`, name: 'Bench' });
  await addMembership(ctx.db, ctx, { companyId: company.id, userId: user.id, permissions: ['forms', 'responses'], owner: false });

  // the panel's CSRF check wants its own origin: pick the port first, then tell the app
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const served = await buildApp({ ...ctx, config: { ...ctx.config, publicPanelUrl: `${origin}/panel` } });
  await served.listen({ port, host: '127.0.0.1' });

  /** The builder's preview call alone, as the page sends it (cookie, CSRF header, Origin), for the saved definition. */
  const previewCall = async (formId: string) => {
    const { token, session } = await startSession(ctx.db, ctx, { userId: user.id, ip: null });
    const headers = { cookie: `quorum_session=${token}`, 'x-csrf-token': session.csrfToken, origin };
    const detail = (await (await fetch(`${origin}/panel/api/forms/${formId}`, { headers })).json()) as { data: { definition: unknown } };
    return async () => {
      const start = performance.now();
      const res = await fetch(`${origin}/panel/api/forms/${formId}/preview`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ definition: detail.data.definition }) });
      const { data } = (await res.json()) as { data: { html: string } };
      return { ms: performance.now() - start, bytes: data.html.length };
    };
  };

  const browser = await launchChromium();
  const times = { large: { ready: [] as number[], change: [] as number[], preview: [] as number[] }, small: { ready: [] as number[], change: [] as number[], preview: [] as number[] } };
  const htmlBytes = { large: 0, small: 0 };
  /** One fresh context: the builder until interactive, then a change until the preview shows it. */
  const visit = async (formId: string, questions: number, run: number) => {
    const session = await startSession(ctx.db, ctx, { userId: user.id, ip: null });
    const context = await browser.newContext({ viewport: { width: 1366, height: 900 }, locale: 'en-US' });
    await context.addCookies([{ name: 'quorum_session', value: session.token, url: `${origin}/panel` }]);
    const page = await context.newPage();
    page.setDefaultTimeout(120_000);
    const frame = page.frameLocator('[data-testid="form-preview"]');
    let start = performance.now();
    await page.goto(`${origin}/panel/forms/${formId}`, { waitUntil: 'commit' });
    await page.locator('li[data-question-key]').nth(questions - 1).getByLabel('Question text').waitFor();
    await frame.getByRole('heading', { name: 'Builder bench', level: 1 }).waitFor();
    const ready = performance.now() - start;

    const text = `Changed in run ${run}`;
    // BENCH_PROFILE=<dir>: the first change of the large form is recorded as a Chrome CPU profile there
    const profiling = PROFILE_DIR && run === 0 && questions === QUESTIONS ? await context.newCDPSession(page) : null;
    if (profiling) await profiling.send('Profiler.enable').then(() => profiling.send('Profiler.start'));
    start = performance.now();
    await page.locator('li[data-question-key="q0"]').getByLabel('Question text').fill(text);
    await frame.getByText(text).waitFor();
    const change = performance.now() - start;
    if (profiling) writeFileSync(join(PROFILE_DIR!, 'builder-change.cpuprofile'), JSON.stringify((await profiling.send('Profiler.stop')).profile));
    await context.close();
    return { ready, change };
  };
  try {
    const calls = { large: await previewCall(forms.large), small: await previewCall(forms.small) };
    for (let run = 0; run < RUNS; run++) {
      // alternated, so drift on a shared machine hits both sizes alike
      for (const [size, questions] of [['large', QUESTIONS], ['small', SMALL]] as const) {
        const { ready, change } = await visit(forms[size], questions, run);
        times[size].ready.push(ready);
        times[size].change.push(change);
        const call = await calls[size]();
        times[size].preview.push(call.ms);
        htmlBytes[size] = call.bytes;
      }
    }
  } finally {
    await browser.close();
    await served.close();
    await ctx.close();
  }
  const row = (measure: string, large: number[], small: number[]) => ({
    measure,
    [`${QUESTIONS} questions`]: Math.round(median(large)),
    [`${SMALL} questions (yardstick)`]: Math.round(median(small)),
    ratio: (median(large) / median(small)).toFixed(1),
    [`runs (${QUESTIONS})`]: large.map(Math.round).join(' / '),
    [`runs (${SMALL})`]: small.map(Math.round).join(' / '),
  });
  printTable([
    row('builder interactive (ms)', times.large.ready, times.small.ready),
    row('change to preview (ms)', times.large.change, times.small.change),
    row('preview call alone (ms)', times.large.preview, times.small.preview),
  ]);
  console.log(`preview html: ${(htmlBytes.large / 1024).toFixed(0)} KB for ${QUESTIONS} questions, ${(htmlBytes.small / 1024).toFixed(0)} KB for ${SMALL}`);
}
