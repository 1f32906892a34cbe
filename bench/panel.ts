/**
 * The panel's weight and speed in Chromium. Bytes: the compressed JavaScript (as served: brotli)
 * the sign-in page loads, and what the first page after it adds; every built asset must be hashed
 * and served compressed. Time: from navigation to a usable page (its button or heading visible;
 * for the keys page, signed in, its list of keys shown), beside a static page with a form served
 * by the same process, in fresh browser contexts (cold cache). The panel API is answered in the
 * browser with contract-shaped answers (a Session, a page of keys), so no database is needed: the
 * server work measured is serving the app.
 */
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page, Request } from 'playwright-core';
import { buildApp } from '../src/platform/app/build-app.js';
import { PANEL_DIST } from '../src/platform/app/panel/serve-web.js';
import { loadConfig } from '../src/platform/config.js';
import { createContext } from '../src/platform/context.js';
import { launchChromium } from '../test/chromium.js';
import { printTable } from './support.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const BUDGET = 250 * 1024;
const HASHED = /-[A-Za-z0-9_-]{8}\.(?:js|css)$/;

const STATIC_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Static</title></head>
<body><main><h1>Sign in</h1><form><label>E-mail <input type="email"></label><label>Password <input type="password"></label>
<button type="submit">Sign in</button></form></main></body></html>`;

const SESSION = {
  user: { id: '0190f0c4-0000-7000-8000-0000000000aa', email: 'bench@example.com', name: 'Bench', language: null, secondFactor: false },
  companies: [{ id: '0190f0c4-0000-7000-8000-000000000001', name: 'Bench School', owner: true, permissions: [] }],
  company: { id: '0190f0c4-0000-7000-8000-000000000001', name: 'Bench School' },
  permissions: [],
  owner: true,
  csrfToken: 'bench',
};

async function server() {
  const ctx = await createContext({
    ...loadConfig({ QUORUM_DATA_DIR: mkdtempSync(join(tmpdir(), 'quorum-bench-panel-')), SECRET_KEY: 'x'.repeat(32), LOG_LEVEL: 'silent' }),
    databaseUrl: 'postgres://unused@127.0.0.1:1/unused',
  });
  const app = await buildApp(ctx);
  // the yardstick: a static page of the same process
  app.get('/bench/static', { schema: { hide: true } }, (_request, reply) => reply.type('text/html; charset=utf-8').send(STATIC_PAGE));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  return { origin, close: async () => (await app.close(), await ctx.close()) };
}

/** A first page of the keys list as GET /panel/api/keys answers it. */
const KEY_COUNT = 20;
const KEYS_PAGE = {
  success: true,
  data: Array.from({ length: KEY_COUNT }, (_, i) => ({
    id: `0190f0c4-0000-7000-8000-${String(i).padStart(12, '0')}`,
    tokenId: `bench${i}`,
    name: `Key ${i}`,
    scopes: ['surveys:read', 'invites:write'],
    rateLimitPerMin: 600,
    expiresAt: null,
    revokedAt: null,
    lastUsedAt: '2026-11-27T10:00:00.000Z',
    createdAt: '2026-11-01T10:00:00.000Z',
  })),
  meta: { limit: 50, hasMore: false, nextCursor: null },
};

/** The panel API as the contract answers it: the session routes, once signed in, and the keys list. */
async function signedInApi(page: Page, origin: string) {
  let signedIn = false;
  await page.route(`${origin}/panel/api/**`, (route) => {
    const method = route.request().method();
    if (method === 'POST') signedIn = true;
    const ok = signedIn || method === 'POST';
    const path = new URL(route.request().url()).pathname;
    const data = path === '/panel/api/keys' ? KEYS_PAGE : path === '/panel/api/keys/scopes' ? { success: true, data: ['surveys:read', 'invites:write'] } : { success: true, data: SESSION };
    return route.fulfill({
      status: ok ? 200 : 401,
      contentType: 'application/json',
      body: JSON.stringify(ok ? data : { success: false, error: { code: 'UNAUTHORIZED', message: 'no session', details: null } }),
    });
  });
}

async function scriptBytes(requests: Request[]): Promise<number> {
  let total = 0;
  for (const request of requests) {
    if (request.resourceType() !== 'script') continue;
    const response = await request.response();
    if (response?.headers()['content-encoding'] !== 'br') throw new Error(`${request.url()} was not served with brotli`);
    total += (await request.sizes()).responseBodySize;
  }
  return total;
}

/** One cold visit: sign-in usable, then signed in and the home page usable, then the keys page by navigation to it. */
async function visit(browser: Browser, origin: string) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
  const page = await context.newPage();
  const requests: Request[] = [];
  page.on('request', (request) => requests.push(request));
  await signedInApi(page, origin);
  let start = performance.now();
  await page.goto(`${origin}/panel/sign-in`, { waitUntil: 'commit' });
  await page.getByRole('button', { name: 'Sign in' }).waitFor();
  const signInMs = performance.now() - start;
  await page.waitForLoadState('networkidle');
  const signInBytes = await scriptBytes(requests);
  const before = requests.length;
  await page.getByLabel('E-mail').fill('bench@example.com');
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill('a bench password');
  start = performance.now();
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Hello, Bench' }).waitFor();
  const homeMs = performance.now() - start;
  await page.waitForLoadState('networkidle');
  const homeBytes = await scriptBytes(requests.slice(before));
  start = performance.now();
  await page.goto(`${origin}/panel/integrations`, { waitUntil: 'commit' });
  // usable: the last key's row shown (row 0 is the header)
  await page.getByRole('table', { name: 'API keys' }).getByRole('row').nth(KEY_COUNT).waitFor();
  const keysMs = performance.now() - start;
  await context.close();
  return { signInMs, signInBytes, homeMs, homeBytes, keysMs };
}

async function staticVisit(browser: Browser, origin: string): Promise<number> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const start = performance.now();
  await page.goto(`${origin}/bench/static`, { waitUntil: 'commit' });
  await page.getByRole('button', { name: 'Sign in' }).waitFor();
  const ms = performance.now() - start;
  await context.close();
  return ms;
}

/** Every built asset has a content hash in its name and a brotli answer. */
async function checkAssets(origin: string): Promise<number> {
  const files = readdirSync(join(PANEL_DIST, 'assets')).filter((name) => /\.(?:js|css)$/.test(name));
  for (const name of files) {
    if (!HASHED.test(name)) throw new Error(`${name} has no content hash in its name`);
    const res = await fetch(`${origin}/panel/assets/${name}`, { headers: { 'accept-encoding': 'br' } });
    await res.arrayBuffer();
    if (!res.ok || res.headers.get('content-encoding') !== 'br') throw new Error(`${name} is not served with brotli`);
  }
  return files.length;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;

export async function run(): Promise<void> {
  if (!existsSync(join(PANEL_DIST, 'index.html'))) throw new Error('dist/panel is missing: run `npm run build` first');
  const { origin, close } = await server();
  const browser = await launchChromium();
  try {
    const assets = await checkAssets(origin);
    const visits = [];
    const statics = [];
    await visit(browser, origin); // warm the server and the browser once, untimed
    for (let run = 0; run < RUNS; run++) {
      statics.push(await staticVisit(browser, origin));
      visits.push(await visit(browser, origin));
    }
    const staticMs = median(statics);
    const signInBytes = visits[0].signInBytes;
    const totalBytes = signInBytes + visits[0].homeBytes;
    console.log(`Panel in Chromium: ${assets} assets, all hashed and served with brotli; median of ${RUNS} cold visits; load average ${(await import('node:os')).loadavg()[0].toFixed(2)}`);
    printTable([
      { page: 'static page (yardstick)', 'usable ms': Math.round(staticMs), ratio: 1, 'JS KB (br)': 0 },
      { page: '/panel/sign-in', 'usable ms': Math.round(median(visits.map((v) => v.signInMs))), ratio: Math.round((median(visits.map((v) => v.signInMs)) / staticMs) * 10) / 10, 'JS KB (br)': kb(signInBytes) },
      { page: 'home after sign-in', 'usable ms': Math.round(median(visits.map((v) => v.homeMs))), ratio: '-', 'JS KB (br)': `+${kb(visits[0].homeBytes)} = ${kb(totalBytes)}` },
      { page: `keys page, signed in (${KEY_COUNT} keys)`, 'usable ms': Math.round(median(visits.map((v) => v.keysMs))), ratio: Math.round((median(visits.map((v) => v.keysMs)) / staticMs) * 10) / 10, 'JS KB (br)': '-' },
    ]);
    if (totalBytes > BUDGET) throw new Error(`sign-in plus the first page load ${kb(totalBytes)} KB of compressed JavaScript, over the ${kb(BUDGET)} KB aim`);
  } finally {
    await browser.close();
    await close();
  }
}
