import { execFile } from 'node:child_process';
import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Worker } from 'node:worker_threads';
import autocannon from 'autocannon';
import nodemailer from 'nodemailer';
import { sql } from 'drizzle-orm';
import { buildApp } from '../src/platform/app/build-app.js';
import { MemoryRateLimiter } from '../src/platform/app/rate-limiter.js';
import { loadConfig } from '../src/platform/config.js';
import { createContext } from '../src/platform/context.js';
import { createCompany } from '../src/features/companies/create-company.js';
import { updateCompanySettings } from '../src/features/companies/company-settings.js';
import { importForm } from '../src/features/forms/import-form.js';
import { sendInvites } from '../src/features/invites/send-invites.js';
import { createKey } from '../src/features/keys/create-key.js';
import { emailKind } from '../src/features/messaging/email-kind.js';
import { smtpMailer, SMTP_CONNECTIONS as SHIPPED_SMTP_CONNECTIONS } from '../src/features/messaging/smtp-mailer.js';
import { startOutboundLoop } from '../src/platform/outbound/loop.js';
import type { Database } from '../src/platform/db/database.js';
import { benchDatabase, benchDatabaseUrl, load, printTable } from './support.js';

/**
 * Invites at volume:
 * 1. 100,000 invites by bulk import of a CSV file, in a child process: its time and peak memory
 *    (maxRSS) beside its RSS before the import (the file is streamed, not held);
 * 2. one send call selecting all of them (quota raised for the bench company), beside its
 *    baseline: the same rows inserted plainly into a table without indexes (plainRows), taken
 *    just before and just after the send;
 * 3. delivery of DELIVER messages to a local SMTP sink through the e-mail kind of the outbound
 *    loop over pooled connections, beside nodemailer sending straight to the sink (its ceiling);
 * 4. POST /forms/{id}/invites at 50 connections beside GET /v1/me, alternating.
 */

const ROWS = 100_000;
const DELIVER = Number(process.env.BENCH_DELIVER ?? 5_000);
const CONNECTIONS = 50;
const SMTP_CONNECTIONS = Number(process.env.BENCH_SMTP_CONNECTIONS ?? SHIPPED_SMTP_CONNECTIONS);
/** Messages under way or being recorded at once (the loop's perTarget): the most a crash can send twice. The worker's default: one per connection. */
const SMTP_SLOTS = Number(process.env.BENCH_SMTP_SLOTS ?? SMTP_CONNECTIONS);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const DATABASE = 'quorum_bench_invites';
const TSX = join(process.cwd(), 'node_modules', '.bin', 'tsx');
const CHILD = fileURLToPath(new URL('./invites-import-child.ts', import.meta.url));
const FORM = { slug: 'bench-invites', name: 'Bench invites', sections: [{ key: 'main', name: 'Main', questions: [{ key: 'nps', name: 'NPS', type: 'NPS' }] }] };

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await work();
  return { ms: performance.now() - started, value };
}

/**
 * A sink that accepts every message and counts them, in a worker thread: its SMTP parsing does
 * not share the event loop of the process it measures. The count is a shared integer.
 */
async function smtpSink() {
  const count = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(
    `const { workerData, parentPort } = require('node:worker_threads');
     const { SMTPServer } = require('smtp-server');
     const server = new SMTPServer({
       authOptional: true, disabledCommands: ['STARTTLS'], disableReverseLookup: true, logger: false,
       onData(stream, _session, callback) {
         stream.on('data', () => undefined);
         stream.on('end', () => { Atomics.add(workerData.count, 0, 1); callback(); });
       },
     });
     server.listen(0, '127.0.0.1', () => parentPort.postMessage(server.server.address().port));
     parentPort.on('message', () => server.close(() => process.exit(0)));`,
    { eval: true, workerData: { count } },
  );
  const port = await new Promise<number>((resolve) => worker.once('message', resolve));
  return {
    url: `smtp://127.0.0.1:${port}`,
    received: () => Atomics.load(count, 0),
    close: () => new Promise<void>((resolve) => {
      worker.once('exit', () => resolve());
      worker.postMessage('close');
    }),
  };
}

/**
 * The baseline of the send: the same selection inserted as message-shaped rows into a table
 * without any index, key, check or trigger, in a transaction rolled back (WAL-logged as the
 * messages are). What writing that many rows costs on this machine at this moment, so a
 * re-run compares the send against it rather than against a time taken under another load.
 */
async function plainRows(database: Database, companyId: string, formId: string): Promise<void> {
  const client = await database.pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(`CREATE TABLE bench_send_baseline (id uuid, company_id uuid, invite_id uuid, batch_id uuid, channel text, status text,
      template jsonb, due_at timestamptz(3), attempts integer, quota_period text, created_at timestamptz(3))`);
    const { rowCount } = await client.query(
      `INSERT INTO bench_send_baseline SELECT gen_random_uuid(), company_id, id, id, 'email', 'pending', NULL, now(), 0, '2026-11', now()
         FROM invites WHERE company_id = $1 AND form_id = $2`,
      [companyId, formId],
    );
    if (rowCount !== ROWS) throw new Error(`baseline wrote ${rowCount} of ${ROWS}`);
  } finally {
    await client.query('ROLLBACK');
    client.release();
  }
}

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 20));
}

/** nodemailer straight to the sink: DELIVER messages of the same shape over the same pool size. */
async function sinkCeiling(sinkUrl: string): Promise<number> {
  const transport = nodemailer.createTransport({ url: sinkUrl, pool: true, maxConnections: SMTP_CONNECTIONS, maxMessages: Infinity } as nodemailer.TransportOptions);
  const { ms } = await timed(async () => {
    const queue = Array.from({ length: DELIVER }, (_, i) => i);
    await Promise.all(
      Array.from({ length: SMTP_CONNECTIONS * 4 }, async () => {
        for (let i = queue.shift(); i !== undefined; i = queue.shift()) {
          await transport.sendMail({ from: 'bench@quorum.test', to: `p${i}@bench.test`, subject: 'Your survey', text: 'Hello, answer at https://forms.test/x', html: '<p>Hello</p>' });
        }
      }),
    );
  });
  transport.close();
  return (DELIVER / ms) * 1000;
}

export async function run(): Promise<void> {
  const database = await benchDatabase(DATABASE);
  const config = { ...loadConfig(), logLevel: 'silent' as const };
  const ctx = await createContext(config, { database, limiter: new MemoryRateLimiter() });
  const company = await createCompany(ctx.db, ctx, { name: 'Invites bench', slug: `bench-invites-${Date.now()}` });
  await updateCompanySettings(ctx.db, ctx, { companyId: company.id, patch: { monthlyQuota: 100_000_000 } });
  const { id: formId } = await importForm(ctx.db, ctx, { companyId: company.id, rawJson: FORM });
  console.log(`invites bench: ${ROWS.toLocaleString('en')} rows, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);

  // 1. The import, in its own process.
  const file = join(mkdtempSync(join(tmpdir(), 'quorum-bench-invites-')), 'contacts.csv');
  writeFileSync(file, `name,email,externalId\n${Array.from({ length: ROWS }, (_, i) => `Person ${i},p${i}@bench.test,E${i}`).join('\n')}\n`);
  const child = await timed(() => promisify(execFile)(TSX, [CHILD, benchDatabaseUrl(DATABASE).toString(), company.id, formId, file], { maxBuffer: 1 << 20 }));
  const imported = JSON.parse(child.value.stdout) as { ms: number; created: number; invalid: number; rssBeforeMb: number; peakRssMb: number };
  if (imported.created !== ROWS) throw new Error(`imported ${imported.created} of ${ROWS}`);

  // 2. One send selecting all of them, beside its baseline.
  const baselineBefore = await timed(() => plainRows(database, company.id, formId));
  const send = await timed(() => sendInvites(ctx.db, ctx, { companyId: company.id, formId, channel: 'email' }));
  if (send.value.queued !== ROWS) throw new Error(`queued ${send.value.queued} of ${ROWS}`);
  const baselineAfter = await timed(() => plainRows(database, company.id, formId));
  const baseline = (baselineBefore.ms + baselineAfter.ms) / 2;

  // 3. Delivery: the sink's ceiling, then the outbound loop, same sink, same pool size.
  const sink = await smtpSink();
  const ceiling = await sinkCeiling(sink.url);
  const base = sink.received();
  const loop = await startOutboundLoop(ctx, emailKind(ctx, smtpMailer(sink.url, { maxConnections: SMTP_CONNECTIONS })), { perTarget: SMTP_SLOTS, listen: false, pollIntervalMs: 50 });
  const delivery = await timed(() => until(() => sink.received() - base >= DELIVER));
  await loop.stop();
  const loopRate = ((sink.received() - base) / delivery.ms) * 1000;
  await sink.close();
  // The rest stays queued: not needed, and not to be sent by a later run.
  await ctx.db.execute(sql`UPDATE invite_messages SET status = 'cancelled' WHERE company_id = ${company.id} AND status = 'pending'`);

  // 4. POST /invites beside GET /v1/me.
  const { token } = await createKey(ctx.db, ctx, { companyId: company.id, name: 'bench', scopes: ['invites:write'], rateLimitPerMin: 1_000_000 });
  const app = await buildApp(ctx);
  const origin = await app.listen({ port: 0, host: '127.0.0.1' });
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const me = await load(`${origin}/v1/me`, { connections: CONNECTIONS, seconds: SECONDS, headers });
  let n = 0;
  const create = await autocannon({
    url: `${origin}/v1/forms/${formId}/invites`,
    connections: CONNECTIONS,
    duration: SECONDS,
    requests: [{ method: 'POST', headers, setupRequest: (req) => ({ ...req, body: JSON.stringify({ name: 'New', email: `new${n++}@bench.test` }) }) }],
  });
  await app.close();

  printTable([
    { step: `bulk import, ${ROWS.toLocaleString('en')} rows (child process)`, value: Math.round(imported.ms), unit: 'ms', note: `CSV ${(statSync(file).size / 2 ** 20).toFixed(1)} MB; peak RSS ${imported.peakRssMb.toFixed(0)} MB (RSS before import ${imported.rssBeforeMb.toFixed(0)} MB)` },
    { step: 'baseline: the same rows, plain INSERT (no index)', value: Math.round(baseline), unit: 'ms', note: `mean of ${Math.round(baselineBefore.ms)} before and ${Math.round(baselineAfter.ms)} after the send; rolled back` },
    { step: 'one send call selecting all', value: Math.round(send.ms), unit: 'ms', note: `${send.value.queued} queued (aim < 3,000 ms); ${(send.ms / baseline).toFixed(1)}× the baseline` },
    { step: `SMTP sink ceiling: nodemailer direct, ${SMTP_CONNECTIONS} pooled conns`, value: Math.round(ceiling), unit: 'msg/s', note: `${DELIVER} messages` },
    { step: `outbound loop, e-mail kind, ${SMTP_CONNECTIONS} pooled conns`, value: Math.round(loopRate), unit: 'msg/s', note: `${DELIVER} messages, ${SMTP_SLOTS} slots; ${((loopRate / ceiling) * 100).toFixed(0)}% of the ceiling (aim >= 300)` },
    { step: `GET /v1/me, ${CONNECTIONS} connections`, value: Math.round(me.requestsPerSec), unit: 'req/s', note: `p50 ${me.p50} ms, p99 ${me.p99} ms, non-2xx ${me.non2xx}` },
    { step: `POST /forms/{id}/invites, ${CONNECTIONS} connections`, value: Math.round(create.requests.average), unit: 'req/s', note: `p50 ${create.latency.p50} ms, p99 ${create.latency.p99} ms, non-2xx ${create.non2xx}; ${((create.requests.average / me.requestsPerSec) * 100).toFixed(0)}% of /v1/me` },
  ]);
  console.log(`load average at the end ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  await ctx.close();
  await database.close();
}
