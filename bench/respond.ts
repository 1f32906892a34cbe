/**
 * The respondent surface (`npm run bench -- respond`):
 * 1. page weight of the personal link's pages (HTML + inline CSS + the one script), raw and gzipped;
 * 2. time to first byte p50/p99 of GET /i/{token}, pages already opened (1,000 invites' in turn),
 *    beside a static page of the same size served by the same process (a bare Fastify route);
 * 3. sustained submissions per second through POST /r/v1/invites/{token}/submit at 50 connections
 *    (from a child process too) beside raw recordResponse calls (50 concurrent transactions) in the same run, and beside the
 *    database's own cost of the rows recordResponse leaves (the response, with what its triggers
 *    write, and its pending rollup row) inserted bare with the same concurrency and commits.
 * The load runs in a child process; each figure also per CPU-second (this process and the
 * database's backends), which holds on a machine shared with other work.
 * The per-address rate limit of /r/v1 is lifted (all load comes from one address).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpGet } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import Fastify from 'fastify';
import { buildApp } from '../src/platform/app/build-app.js';
import type { RateLimiter } from '../src/platform/app/rate-limiter.js';
import { loadConfig } from '../src/platform/config.js';
import { createContext } from '../src/platform/context.js';
import { createCompany } from '../src/features/companies/create-company.js';
import { findForm } from '../src/features/forms/find-form.js';
import { importForm } from '../src/features/forms/import-form.js';
import { importInvites } from '../src/features/invites/import-invites.js';
import { recordResponse } from '../src/features/responses/record-response.js';
import { idsByKey, steppedForm } from '../test/respondent-pages.js';
import { benchDatabase, benchDatabaseUrl, measuredLoad, meterCpu, printTable } from './support.js';

const CONNECTIONS = 50;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const INVITES = Number(process.env.BENCH_INVITES ?? 30_000);
/** Invites whose page the load reopens: their kept pages (about 15 MB) fit the cache's budget. */
const OPENED = 1000;

const unlimited: RateLimiter = {
  hit: async (_key, limit) => ({ allowed: true, limit, remaining: limit, resetSeconds: 0 }),
  peek: async (_key, limit) => ({ allowed: true, limit, remaining: limit, resetSeconds: 0 }),
  take: async (_key, limit) => ({ allowed: true, limit, remaining: limit, resetSeconds: 0, ticket: 'unlimited' }),
  release: async () => {},
  close: async () => {},
};

function fetchText(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    httpGet(url, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve(body));
    })
      .on('error', reject)
      .end();
  });
}

export async function run(): Promise<void> {
  const database = await benchDatabase('quorum_bench_respond');
  const ctx = await createContext({ ...loadConfig(), logLevel: 'silent' }, { database, limiter: unlimited });
  const company = await createCompany(ctx.db, ctx, { name: 'Bench School', slug: `bench-${Date.now()}` });
  const { id: formId } = await importForm(ctx.db, ctx, { companyId: company.id, rawJson: steppedForm() });
  const form = (await findForm(ctx.db, ctx, { companyId: company.id, id: formId }))!;
  const csv = `name,email,externalId\n${Array.from({ length: INVITES }, (_, i) => `Person ${i},p${i}@bench.test,E${i}`).join('\n')}\n`;
  const { batchId } = await importInvites(ctx.db, ctx, { companyId: company.id, form, source: Readable.from([csv]) });
  const { rows } = await ctx.db.execute<{ token: string }>(sql`SELECT token FROM invites WHERE batch_id = ${batchId} ORDER BY external_id`);
  const tokens = rows.map((r) => r.token);

  const app = await buildApp(ctx);
  const origin = await app.listen({ port: 0, host: '127.0.0.1' });

  // 1. Page weight: the first and the last section of the personal link, and the script.
  const { q, option } = idsByKey(form);
  const first = await fetchText(`${origin}/i/${tokens[0]}`);
  const scriptPath = /<script src="([^"]+)"/.exec(first)![1];
  const script = await fetchText(origin + scriptPath);
  const draft = { [q('campus')]: option('campus', 'north'), [q('attended')]: true };
  await fetch(`${origin}/r/v1/invites/${tokens[1]}/draft`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ answers: draft, sectionIndex: 2 }) });
  const last = await fetchText(`${origin}/i/${tokens[1]}`);
  const gz = (text: string) => gzipSync(text).length;
  const external = [...`${first}${last}`.matchAll(/(?:src|href|action)="(https?:)?\/\//g)].length;

  // 2. TTFB of the page beside a static page of the same size, same process.
  const staticApp = Fastify({ logger: false });
  staticApp.get('/static', async (_request, reply) => reply.type('text/html; charset=utf-8').send(first));
  const staticOrigin = await staticApp.listen({ port: 0, host: '127.0.0.1' });
  const metered = { pool: database.pool, name: benchDatabaseUrl('quorum_bench_respond').pathname.slice(1) };
  // Pages already opened: OPENED invites' links, each drawn once by the warm-up (JIT, connections,
  // the kept pages), then loaded in turn, as many people reopening their links would.
  const dir = mkdtempSync(join(tmpdir(), 'quorum-respond-'));
  const opened = tokens.slice(2, 2 + OPENED);
  for (let i = 0; i < opened.length; i += CONNECTIONS) await Promise.all(opened.slice(i, i + CONNECTIONS).map((token) => fetchText(`${origin}/i/${token}`)));
  const pagesFile = join(dir, 'pages');
  writeFileSync(pagesFile, opened.map((token) => `/i/${token}\n`).join(''));
  const get = (url: string, pathsFile?: string) => measuredLoad({ url, method: 'GET', connections: CONNECTIONS, seconds: SECONDS, headers: {}, pathsFile }, metered);
  const page = await get(origin, pagesFile);
  const flat = await get(`${staticOrigin}/static`);

  // 3. Submissions through the API from a child process, one invite each (its link's path read from
  // a file), then raw recordResponse calls. The first two invites were read above.
  const answers = { [q('campus')]: option('campus', 'north'), [q('attended')]: true, [q('overall')]: 4 };
  const pathsFile = join(dir, 'submits');
  writeFileSync(pathsFile, tokens.slice(2).map((token) => `/r/v1/invites/${token}/submit\n`).join(''));
  const submit = await measuredLoad(
    { url: origin, method: 'POST', connections: CONNECTIONS, seconds: SECONDS, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ answers }), pathsFile },
    metered,
  );
  rmSync(dir, { recursive: true });
  if (submit.total + CONNECTIONS >= tokens.length - 2) console.warn(`only ${tokens.length} invites for ${submit.total} submits: raise BENCH_INVITES`);
  // The same 50 concurrent loops of one transaction each: recordResponse, then its rows bare.
  const concurrently = async (work: () => Promise<unknown>) => {
    let done = 0;
    const stop = await meterCpu(metered);
    const until = Date.now() + SECONDS * 1000;
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        while (Date.now() < until) {
          await work();
          done += 1;
        }
      }),
    );
    const used = await stop();
    return { perSecond: done / SECONDS, perCpuS: done / (used.processCpuS + used.databaseCpuS) };
  };
  const raw = await concurrently(() => ctx.db.transaction((tx) => recordResponse(tx, ctx, { form, answers })));
  // One response recordResponse wrote and its pending rollup row, as JSON, re-inserted under new ids.
  const { rows: sample } = await ctx.db.execute<{ response: object; pending: object }>(sql`
    SELECT row_to_json(r) AS response, row_to_json(p) AS pending
      FROM responses r JOIN statistics_rollup_pending p ON p.response_id = r.id
     WHERE r.form_id = ${formId} AND r.invite_id IS NULL LIMIT 1`);
  // Generated and identity columns are the database's to fill, as for recordResponse.
  const stored = async (table: string) =>
    (await ctx.db.execute<{ column_name: string }>(sql`
      SELECT column_name FROM information_schema.columns WHERE table_name = ${table} AND is_generated = 'NEVER' AND is_identity = 'NO' ORDER BY ordinal_position`)).rows
      .map((c) => `"${c.column_name}"`)
      .join(', ');
  const [responseColumns, pendingColumns] = [await stored('responses'), await stored('statistics_rollup_pending')];
  const bare = await concurrently(() =>
    ctx.db.transaction(async (tx) => {
      const id = ctx.newId();
      await tx.execute(sql`INSERT INTO responses (${sql.raw(responseColumns)})
        SELECT ${sql.raw(responseColumns)} FROM json_populate_record(NULL::responses, ${JSON.stringify({ ...sample[0].response, id })}::json)`);
      await tx.execute(sql`INSERT INTO statistics_rollup_pending (${sql.raw(pendingColumns)})
        SELECT ${sql.raw(pendingColumns)} FROM json_populate_record(NULL::statistics_rollup_pending, ${JSON.stringify({ ...sample[0].pending, response_id: id })}::json)`);
    }),
  );
  const perCpu = (r: { requestsPerSec: number; perCpuSecond: number; serverCpuS: number; databaseCpuS: number }) =>
    `${Math.round(r.perCpuSecond)} per CPU-s (${r.serverCpuS.toFixed(1)} + ${r.databaseCpuS.toFixed(1)} CPU-s)`;

  printTable([
    { measure: 'page weight, first section (HTML + inline CSS)', value: first.length, unit: 'bytes', note: `gzipped ${gz(first)}` },
    { measure: 'page weight, last section (HTML + inline CSS)', value: last.length, unit: 'bytes', note: `gzipped ${gz(last)}` },
    { measure: 'page script (one file, cached a year)', value: script.length, unit: 'bytes', note: `gzipped ${gz(script)}` },
    { measure: 'heaviest page + script', value: Math.max(first.length, last.length) + script.length, unit: 'bytes', note: `gzipped ${Math.max(gz(first), gz(last)) + gz(script)}; external requests ${external} (aim < 50 KB)` },
    { measure: `GET /i/{token} of ${OPENED} opened invites, ${CONNECTIONS} connections`, value: Math.round(page.requestsPerSec), unit: 'req/s', note: `TTFB p50 ${page.p50} ms, p99 ${page.p99} ms, non-2xx ${page.non2xx}; ${perCpu(page)}` },
    { measure: `static page of ${first.length} bytes, same process`, value: Math.round(flat.requestsPerSec), unit: 'req/s', note: `TTFB p50 ${flat.p50} ms, p99 ${flat.p99} ms; ${perCpu(flat)}` },
    { measure: `POST /r/v1/invites/{token}/submit, ${CONNECTIONS} connections`, value: Math.round(submit.requestsPerSec), unit: 'submits/s', note: `p50 ${submit.p50} ms, p99 ${submit.p99} ms, non-2xx ${submit.non2xx}; ${perCpu(submit)}` },
    { measure: `raw recordResponse, ${CONNECTIONS} concurrent transactions`, value: Math.round(raw.perSecond), unit: 'responses/s', note: `API at ${((submit.requestsPerSec / raw.perSecond) * 100).toFixed(0)}% of raw (${((submit.perCpuSecond / raw.perCpuS) * 100).toFixed(0)}% per CPU-s); ${Math.round(raw.perCpuS)} per CPU-s` },
    { measure: `its rows inserted bare, ${CONNECTIONS} concurrent transactions`, value: Math.round(bare.perSecond), unit: 'responses/s', note: `recordResponse at ${(raw.perSecond / bare.perSecond).toFixed(2)} of bare (${(raw.perCpuS / bare.perCpuS).toFixed(2)} per CPU-s); ${Math.round(bare.perCpuS)} per CPU-s` },
  ]);
  console.log(`load average at the end: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  await staticApp.close();
  await app.close();
  await ctx.close();
  await database.close();
}
