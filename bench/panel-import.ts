/**
 * The invite import of 100,000 rows through the panel, beside the CLI's import of the same file
 * in the same run:
 * - CLI: `importInvites` on the CSV file in a child process, as `quorum invite import` calls it
 *   (bench/invites-import-child.ts): its time and peak memory (maxRSS);
 * - panel: the server in its own process, signed in as a member with the invites permission,
 *   each request carrying the session cookie, the x-csrf-token and the panel's Origin, as the
 *   import page does: POST /panel/api/invites/import/read (the file, base64), then the rows in
 *   parts of 2,000 to POST /panel/api/forms/{id}/invites/import, first as the page's check (dryRun)
 *   and then written into one batch. After each part the page moves its progress bar: the bench
 *   counts those progress points.
 * Rows/s of each and the ratio panel/CLI (aim ≥ 0.8), for the import (read + written parts) and for
 * the whole page flow (read + check + written parts). Each import goes to its own form of one company.
 */
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { loadConfig } from '../src/platform/config.js';
import { createContext } from '../src/platform/context.js';
import { createCompany } from '../src/features/companies/index.js';
import { importForm } from '../src/features/forms/index.js';
import { addMembership } from '../src/features/memberships/index.js';
import { createUser, startSession } from '../src/features/sessions/index.js';
import { importInParts, type PartSummary } from '../web/panel/src/pages/invites/import-parts.js';
import { benchDatabase, benchDatabaseUrl, printTable } from './support.js';

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const DATABASE = 'quorum_bench_panel_import';
const CLI_CHILD = fileURLToPath(new URL('./invites-import-child.ts', import.meta.url));
const SERVER_ENTRY = fileURLToPath(new URL('./panel-import-server.ts', import.meta.url));
/** BENCH_PROFILE=<dir>: the server and the CLI child write V8 CPU profiles there (where the time goes). */
const PROFILE = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
const FORM = { name: 'Bench panel import', sections: [{ key: 'main', name: 'Main', questions: [{ key: 'nps', name: 'NPS', type: 'NPS' }] }] };

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await work();
  return { ms: performance.now() - started, value };
}

/** The panel server in its own process; answers its origin, a way to ask its peak memory, and a stop. */
async function panelServer(databaseUrl: string) {
  const child = spawn(process.execPath, [...PROFILE, '--import', 'tsx', SERVER_ENTRY], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const exited = once(child, 'exit');
  const next = <T>() =>
    new Promise<T>((resolve, reject) => {
      child.once('message', (message) => resolve(message as T));
      void exited.then(([code]) => reject(new Error(`the bench server exited (${code})`)));
    });
  const ready = next<{ origin: string; rssMb: number }>();
  child.send({ databaseUrl });
  const { origin, rssMb } = await ready;
  return {
    origin,
    rssMb,
    peakRssMb: async () => {
      const answer = next<{ peakRssMb: number }>();
      child.send('memory');
      return (await answer).peakRssMb;
    },
    stop: async () => {
      child.disconnect();
      await exited;
    },
  };
}

/** The import page's requests, as the web app sends them (cookie, CSRF header, Origin). */
function panelClient(origin: string, session: { token: string; csrfToken: string }) {
  const headers = { cookie: `quorum_session=${session.token}`, 'x-csrf-token': session.csrfToken, origin, 'content-type': 'application/json' };
  return async <T>(path: string, body: unknown): Promise<T> => {
    const res = await fetch(`${origin}/panel/api${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    const text = await res.text();
    if (!res.ok) throw new Error(`POST ${path}: ${res.status} ${text.slice(0, 400)}`);
    return (JSON.parse(text) as { data: T }).data;
  };
}

export async function run(): Promise<void> {
  const databaseUrl = benchDatabaseUrl(DATABASE).toString();
  const database = await benchDatabase(DATABASE);
  const ctx = await createContext({ ...loadConfig(), databaseUrl, redisUrl: null, logLevel: 'silent' }, { database });
  const stamp = Date.now().toString(36);
  const company = await createCompany(ctx.db, ctx, { slug: `panel-import-${stamp}`, name: 'Panel import bench' });
  const cliForms = [await importForm(ctx.db, ctx, { companyId: company.id, rawJson: { ...FORM, slug: `cli-${stamp}` } }), await importForm(ctx.db, ctx, { companyId: company.id, rawJson: { ...FORM, slug: `cli2-${stamp}` } })];
  const panelForm = await importForm(ctx.db, ctx, { companyId: company.id, rawJson: { ...FORM, slug: `panel-${stamp}` } });
  const user = await createUser(ctx.db, ctx, { email: `importer-${stamp}@bench.test`, name: 'Importer' });
  await addMembership(ctx.db, ctx, { companyId: company.id, userId: user.id, permissions: ['invites'], owner: false });
  const { token, session } = await startSession(ctx.db, ctx, { userId: user.id, ip: null });

  const file = join(mkdtempSync(join(tmpdir(), 'quorum-bench-panel-import-')), 'contacts.csv');
  writeFileSync(file, `name,email,externalId\n${Array.from({ length: ROWS }, (_, i) => `Person ${i},p${i}@bench.test,E${i}`).join('\n')}\n`);
  const load = loadavg().map((l) => l.toFixed(2)).join(' ');
  console.log(`panel-import bench: ${ROWS.toLocaleString('en')} rows, CSV ${(statSync(file).size / 2 ** 20).toFixed(1)} MB, load average ${load}`);

  // The CLI's import, in its own process: once before the panel's and once after (the invites
  // table and its indexes grow with each import, so neither side gets only the smaller table).
  const cliImport = async (formId: string) => {
    const { stdout } = await promisify(execFile)(process.execPath, [...PROFILE, '--import', 'tsx', CLI_CHILD, databaseUrl, company.id, formId, file], { maxBuffer: 1 << 20 });
    const result = JSON.parse(stdout) as { ms: number; created: number; rssBeforeMb: number; peakRssMb: number };
    if (result.created !== ROWS) throw new Error(`the CLI imported ${result.created} of ${ROWS}`);
    return result;
  };
  const cliBefore = await cliImport(cliForms[0].id);

  // The panel's import, the server in its own process.
  const server = await panelServer(databaseUrl);
  const progress: { check: number[]; write: number[] } = { check: [], write: [] };
  try {
    const post = panelClient(server.origin, { token, csrfToken: session.csrfToken });
    const read = await timed(() => post<{ columns: string[]; rows: { line: number; cells: string[] }[] }>('/invites/import/read', { fileName: 'contacts.csv', content: readFileSync(file).toString('base64') }));
    const send = (body: object) => post<PartSummary>(`/forms/${panelForm.id}/invites/import`, body);
    const check = await timed(() => importInParts(send, { ...read.value, dryRun: true, onProgress: (done) => progress.check.push(done) }));
    if (check.value.invalid !== 0 || check.value.rows !== ROWS) throw new Error(`the check saw ${check.value.rows} rows, ${check.value.invalid} invalid`);
    const write = await timed(() => importInParts(send, { ...read.value, dryRun: false, onProgress: (done) => progress.write.push(done) }));
    if (write.value.created !== ROWS) throw new Error(`the panel imported ${write.value.created} of ${ROWS}`);
    const serverPeak = await server.peakRssMb();
    const cliAfter = await cliImport(cliForms[1].id);
    const cli = { ms: (cliBefore.ms + cliAfter.ms) / 2, peakRssMb: Math.max(cliBefore.peakRssMb, cliAfter.peakRssMb), rssBeforeMb: cliBefore.rssBeforeMb };

    const rate = (ms: number) => Math.round((ROWS / ms) * 1000);
    const cliRate = rate(cli.ms);
    const importMs = read.ms + write.ms;
    const flowMs = read.ms + check.ms + write.ms;
    printTable([
      { path: 'CLI: importInvites on the file (child process)', ms: `${Math.round(cli.ms)} (${Math.round(cliBefore.ms)} before, ${Math.round(cliAfter.ms)} after)`, 'rows/s': cliRate, ratio: 1, 'peak RSS MB': `${cli.peakRssMb.toFixed(0)} (${cli.rssBeforeMb.toFixed(0)} before)`, progress: '-' },
      { path: 'panel: read the file', ms: Math.round(read.ms), 'rows/s': rate(read.ms), ratio: '-', 'peak RSS MB': '', progress: '-' },
      { path: 'panel: check (dryRun parts)', ms: Math.round(check.ms), 'rows/s': rate(check.ms), ratio: '-', 'peak RSS MB': '', progress: `${progress.check.length} updates` },
      { path: 'panel: import (written parts)', ms: Math.round(write.ms), 'rows/s': rate(write.ms), ratio: (rate(write.ms) / cliRate).toFixed(2), 'peak RSS MB': '', progress: `${progress.write.length} updates` },
      { path: 'panel: read + import', ms: Math.round(importMs), 'rows/s': rate(importMs), ratio: (rate(importMs) / cliRate).toFixed(2), 'peak RSS MB': `${serverPeak.toFixed(0)} server (${server.rssMb.toFixed(0)} at start)`, progress: '-' },
      { path: 'panel: read + check + import (the page flow)', ms: Math.round(flowMs), 'rows/s': rate(flowMs), ratio: (rate(flowMs) / cliRate).toFixed(2), 'peak RSS MB': '', progress: '-' },
    ]);
    console.log(`bench process peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB (holds the file as the browser would); load average at the end ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  } finally {
    await server.stop();
    await ctx.close();
    await database.close();
  }
}
