/**
 * The form builder with a 200-question form, in Chromium against the real service and database:
 * - time to interactive: from navigation to /panel/forms/{id} until the 200th question's text field
 *   is enabled and the preview frame shows the form (its first section drawn by the server);
 * - change to preview: from typing a new text into the first question until the preview frame
 *   shows it (the builder's 600 ms pause after typing, the preview call, the frame's load).
 * Each is the median of BENCH_RUNS (default 5) fresh browser contexts. Needs `dist/panel`
 * (`npm run build`) and /usr/bin/chromium; BENCH_DATABASE_URL names the database (created and
 * migrated when missing).
 */
import { createServer, type AddressInfo } from 'node:net';
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
const QUESTIONS = 200;
const TYPES = ['TEXT', 'PARAGRAPH', 'NUMBER', 'RADIO', 'CHECKBOX', 'BOOLEAN', 'NPS', 'MATRIX'] as const;

/** 200 questions over 10 sections, of eight types, every fifth with a condition on the one before. */
export function builderForm(slug: string) {
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
    sections: Array.from({ length: 10 }, (_, s) => ({ key: `s${s}`, name: `Section ${s + 1}`, questions: Array.from({ length: QUESTIONS / 10 }, (_, q) => question(s * 20 + q)) })),
  };
}

/** A port free now, so the app can be told its own origin before it listens. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export async function run(): Promise<void> {
  const url = benchDatabaseUrl('quorum_bench_builder').toString();
  const database = await benchDatabase('quorum_bench_builder');
  await database.pool.end();
  const ctx = await createContext({ ...loadConfig(), databaseUrl: url, redisUrl: null, logLevel: 'silent' });
  const stamp = Date.now().toString(36);
  const company = await createCompany(ctx.db, ctx, { slug: `builder-${stamp}`, name: 'Builder bench' });
  const { id: formId } = await importForm(ctx.db, ctx, { companyId: company.id, rawJson: builderForm(`bench-${stamp}`) });
  const user = await createUser(ctx.db, ctx, { email: `builder-${stamp}@bench.test`, name: 'Bench' });
  await addMembership(ctx.db, ctx, { companyId: company.id, userId: user.id, permissions: ['forms', 'responses'], owner: false });

  // the panel's CSRF check wants its own origin: pick the port first, then tell the app
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const served = await buildApp({ ...ctx, config: { ...ctx.config, publicPanelUrl: `${origin}/panel` } });
  await served.listen({ port, host: '127.0.0.1' });

  const browser = await launchChromium();
  const ready: number[] = [];
  const change: number[] = [];
  try {
    for (let run = 0; run < RUNS; run++) {
      const session = await startSession(ctx.db, ctx, { userId: user.id, ip: null });
      const context = await browser.newContext({ viewport: { width: 1366, height: 900 }, locale: 'en-US' });
      await context.addCookies([{ name: 'quorum_session', value: session.token, url: `${origin}/panel` }]);
      const page = await context.newPage();
      page.setDefaultTimeout(120_000);
      const frame = page.frameLocator('[data-testid="form-preview"]');
      let start = performance.now();
      await page.goto(`${origin}/panel/forms/${formId}`, { waitUntil: 'commit' });
      await page.locator('li[data-question-key]').nth(QUESTIONS - 1).getByLabel('Question text').waitFor();
      await frame.getByRole('heading', { name: 'Builder bench', level: 1 }).waitFor();
      ready.push(performance.now() - start);

      const text = `Changed in run ${run}`;
      start = performance.now();
      await page.locator('li[data-question-key="q0"]').getByLabel('Question text').fill(text);
      await frame.getByText(text).waitFor();
      change.push(performance.now() - start);
      await context.close();
    }
  } finally {
    await browser.close();
    await served.close();
    await ctx.close();
  }
  printTable([
    { measure: `builder interactive, ${QUESTIONS} questions (ms)`, median: Math.round(median(ready)), runs: ready.map(Math.round).join(' / ') },
    { measure: 'change to preview (ms)', median: Math.round(median(change)), runs: change.map(Math.round).join(' / ') },
  ]);
}
