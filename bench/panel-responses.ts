import { loadavg } from 'node:os';
import { loadConfig } from '../src/platform/config.js';
import { createContext } from '../src/platform/context.js';
import { buildApp } from '../src/platform/app/build-app.js';
import { createKey } from '../src/features/keys/create-key.js';
import { addMembership } from '../src/features/memberships/index.js';
import { createUser, describeSession, startSession } from '../src/features/sessions/index.js';
import { launchChromium } from '../test/chromium.js';
import { freePort } from '../test/free-port.js';
import { ensureBenchData, RESPONSE_COUNT } from './responses-scan-seed.js';
import { benchDatabase, benchDatabaseUrl, printTable } from './support.js';

/**
 * The panel's Responses and Statistics areas over the responses-scan data set (1,000,000
 * responses), each beside the /v1 route it stands on, in the same run and process:
 * - the table's first page (panel scan, limit 100 with answers) beside /v1's first page;
 * - a jump deep: the table's way there is a period, so the first page of `to=<the 30th day>`
 *   (past the 900,000th newest row) on both;
 * - the CSV export of the whole form (rows/s) beside a full /v1 scan at limit 100 (rows/s), with
 *   the process's peak RSS during the export; the XLSX export likewise;
 * - the dashboard's first chart: the whole-form statistics call the page waits for, and the page
 *   itself in Chromium, from navigation to /panel/statistics (the form already chosen, as the
 *   tab's session keeps it) until the first question's chart is drawn, each round a fresh
 *   browser context (no cache, a new session), BROWSER_ROUNDS of them, beside the same page for
 *   the data set's 20,000-response form.
 * BENCH_EXPORT_TO=YYYY-MM-DD narrows the exports and the scan to responses up to that day;
 * BENCH_ONLY=dashboard runs only the dashboard in Chromium (the page's cost, a minute, not the exports' ten);
 * BENCH_TIMELINE=1 prints one more visit's requests with their times; BENCH_PANEL_BEFORE=<dir> serves
 * another build of the panel (say main's dist/panel, copied) beside this one, every dashboard visit alternated with its twin there.
 * Needs `dist/panel` (`npm run build`) and /usr/bin/chromium for the dashboard in Chromium.
 */
const ROUNDS = 21;
const BROWSER_ROUNDS = 5;
const DEEP_TO = '2025-03-30';

/** A built panel the dashboard is measured on: this checkout's, or another build served beside it. */
interface Site {
  label: string;
  address: string;
}

/**
 * The Statistics page in Chromium until the first question's chart (its chart/table switch) is
 * drawn, per fresh context, for the 1,000,000-response form and, alternated with it, the data
 * set's 20,000-response form (same questions): the yardstick that shows what the page costs
 * whatever the form's size. With a second site (another build of the panel, BENCH_PANEL_BEFORE),
 * every visit is alternated with the same visit there: a before/after measured in the same minutes.
 * Prints the medians and each round.
 */
async function dashboardInChromium(sites: Site[], forms: { large: string; small: string }, newSession: () => Promise<string>): Promise<void> {
  const browser = await launchChromium();
  const times = sites.map(() => ({ large: [] as number[], small: [] as number[] }));
  const visit = async (address: string, formId: string, timeline?: string[]) => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
    await context.addCookies([{ name: 'quorum_session', value: await newSession(), url: `${address}/panel` }]);
    // the form the person chose earlier in this tab, as the page keeps it (useChosenForm)
    await context.addInitScript((id) => sessionStorage.setItem('quorum.panel.form', JSON.stringify(id)), formId);
    const page = await context.newPage();
    page.setDefaultTimeout(120_000);
    const started = performance.now();
    if (timeline) {
      const asked = new Map<object, number>();
      page.on('request', (request) => asked.set(request, performance.now() - started));
      page.on('requestfinished', (request) => {
        const url = request.url().slice(address.length);
        timeline.push(`${Math.round(asked.get(request) ?? 0)}–${Math.round(performance.now() - started)} ms ${url}`);
      });
    }
    await page.goto(`${address}/panel/statistics`, { waitUntil: 'commit' });
    await page.getByRole('radiogroup', { name: 'View of “Question 1”' }).waitFor();
    const ms = performance.now() - started;
    timeline?.push(`${Math.round(ms)} ms: the first chart`);
    await context.close();
    return ms;
  };
  try {
    for (let i = 0; i < BROWSER_ROUNDS; i++) {
      for (const form of ['large', 'small'] as const) {
        for (const [s, site] of sites.entries()) times[s][form].push(await visit(site.address, forms[form]));
      }
    }
    if (process.env.BENCH_TIMELINE) {
      for (const site of sites) {
        const timeline: string[] = [];
        await visit(site.address, forms.large, timeline);
        console.log(`One more visit's requests, ${site.label} (asked–finished, from navigation):\n${timeline.join('\n')}`);
      }
    }
  } finally {
    await browser.close();
  }
  const mid = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  printTable(
    sites.map((site, s) => ({
      what: `dashboard in Chromium: navigation to first chart (${site.label})`,
      [`${RESPONSE_COUNT.toLocaleString('en-US')} responses ms`]: Math.round(mid(times[s].large)),
      '20,000 responses ms': Math.round(mid(times[s].small)),
      ratio: mid(times[s].large) / mid(times[s].small),
      rounds: `${times[s].large.map(Math.round).join(' / ')} | ${times[s].small.map(Math.round).join(' / ')}`,
    })),
  );
}

/** The median times of two requests, their rounds alternated so that drift on a shared machine hits both alike. */
async function pairedMedians(first: () => Promise<unknown>, second: () => Promise<unknown>, rounds = ROUNDS): Promise<[number, number]> {
  const times: [number[], number[]] = [[], []];
  const timed = async (work: () => Promise<unknown>, into: number[]) => {
    const started = performance.now();
    await work();
    into.push(performance.now() - started);
  };
  for (let i = 0; i < rounds; i++) {
    await timed(first, times[0]);
    await timed(second, times[1]);
  }
  const mid = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(rounds / 2)];
  return [mid(times[0]), mid(times[1])];
}

export async function run(): Promise<void> {
  const database = await benchDatabase('quorum_bench');
  const data = await ensureBenchData(database.pool, (line) => console.log(line));
  await database.pool.end();
  const ctx = await createContext({ ...loadConfig(), databaseUrl: benchDatabaseUrl('quorum_bench').toString(), redisUrl: null, logLevel: 'silent' });
  const port = await freePort();
  const address = `http://127.0.0.1:${port}`;
  const app = await buildApp({ ...ctx, config: { ...ctx.config, publicPanelUrl: `${address}/panel` } });
  await app.listen({ port, host: '127.0.0.1' });
  const { token } = await createKey(ctx.db, ctx, { companyId: data.companyId, name: 'panel-responses bench', scopes: ['surveys:read', 'reports:read'], rateLimitPerMin: 1_000_000 });
  const user = await createUser(ctx.db, ctx, { email: `bench-${Date.now()}@bench.test`, name: 'Bench' });
  await addMembership(ctx.db, ctx, { companyId: data.companyId, userId: user.id, permissions: ['responses'], owner: false });
  const session = await startSession(ctx.db, ctx, { userId: user.id, ip: null });
  await describeSession(ctx.db, ctx, { sessionId: session.session.id });
  const v1 = { authorization: `Bearer ${token}` };
  const panel = { cookie: `quorum_session=${session.token}` };
  const get = async (url: string, headers: Record<string, string>) => {
    const res = await app.inject({ method: 'GET', url, headers });
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body.slice(0, 300)}`);
    return res;
  };
  const form = data.formId;
  const exportTo = process.env.BENCH_EXPORT_TO;
  const cut = exportTo ? `&to=${exportTo}` : '';
  const { rows: [other] } = await ctx.pool.query<{ id: string }>(`SELECT id FROM forms WHERE company_id = $1 AND slug = 'other'`, [data.companyId]);
  const sites: Site[] = [{ label: 'this build', address }];
  const beforeDir = process.env.BENCH_PANEL_BEFORE;
  const beforePort = await freePort();
  const before = beforeDir ? await buildApp({ ...ctx, config: { ...ctx.config, publicPanelUrl: `http://127.0.0.1:${beforePort}/panel` } }, { panelDir: beforeDir }) : null;
  if (before) {
    await before.listen({ port: beforePort, host: '127.0.0.1' });
    sites.push({ label: `built in ${beforeDir}`, address: `http://127.0.0.1:${beforePort}` });
  }
  const dashboard = async () => {
    console.log(`dashboard in Chromium, load average at its start: ${loadavg().map((l) => l.toFixed(2)).join(', ')}`);
    await dashboardInChromium(sites, { large: form, small: other.id }, async () => (await startSession(ctx.db, ctx, { userId: user.id, ip: null })).token);
    await before?.close();
  };
  if (process.env.BENCH_ONLY === 'dashboard') {
    await dashboard();
    await app.close();
    await ctx.close();
    return;
  }

  const rows: Record<string, string | number>[] = [];
  const pair = async (what: string, panelUrl: string, apiUrl: string) => {
    const [p, a] = await pairedMedians(() => get(panelUrl, panel), () => get(apiUrl, v1));
    rows.push({ what, 'panel ms': p, 'API ms': a, ratio: p / a });
  };
  await pair('table: first page', `/panel/api/responses/forms/${form}/scan?limit=100`, `/v1/forms/${form}/responses?limit=100&include=answers`);
  await pair(`table: jump deep (to=${DEEP_TO})`, `/panel/api/responses/forms/${form}/scan?limit=100&to=${DEEP_TO}`, `/v1/forms/${form}/responses?limit=100&include=answers&to=${DEEP_TO}`);
  await pair('dashboard: whole-form statistics', `/panel/api/statistics/forms/${form}`, `/v1/forms/${form}/statistics`);
  printTable(rows);
  await dashboard();

  let started = performance.now();
  let scanned = 0;
  let cursor: string | null = null;
  do {
    const page: { data: unknown[]; meta: { nextCursor: string | null } } = (await get(`/v1/forms/${form}/responses?limit=100&include=answers${cut}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, v1)).json();
    scanned += page.data.length;
    cursor = page.meta.nextCursor;
  } while (cursor);
  const scanRate = scanned / ((performance.now() - started) / 1000);

  const exports: Record<string, string | number>[] = [{ what: 'API scan (limit 100)', rows: scanned, 'rows/s': Math.round(scanRate), 'of scan': 1, 'peak RSS MB': '' }];
  for (const format of ['csv', 'xlsx']) {
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
    started = performance.now();
    // Over a socket and read as a stream, as a browser does: inject would buffer the whole file.
    const response = await fetch(`${address}/panel/api/responses/forms/${form}/export?format=${format}${cut}`, { headers: panel });
    let bytes = 0;
    const reader = response.body!.getReader();
    for (let next = await reader.read(); !next.done; next = await reader.read()) bytes += next.value.byteLength;
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    const total = Number(response.headers.get('x-export-total'));
    exports.push({ what: `${format.toUpperCase()} export (${Math.round(bytes / 1e6)} MB)`, rows: total, 'rows/s': Math.round(total / seconds), 'of scan': total / seconds / scanRate, 'peak RSS MB': Math.round(peak / 1e6) });
  }
  printTable(exports);
  console.log(`(${RESPONSE_COUNT.toLocaleString('en-US')} responses seeded${exportTo ? `; exports and scan up to ${exportTo}` : ''})`);
  await app.close();
  await ctx.close();
}
