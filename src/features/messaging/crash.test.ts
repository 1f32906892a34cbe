import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { createSurvey } from '../../../test/responses.js';
import { setWhatsappChannel } from './set-whatsapp-channel.js';
import { SMTP_CONNECTIONS } from './smtp-mailer.js';

/**
 * The duplicate window of a crash (issue 21, item 9): the real worker (`startWorker`, its own
 * loop settings) sends in a child process and is killed with SIGKILL mid-send, or loses its
 * database mid-send; the receivers count what arrived per recipient. What a crash can send twice
 * is what had left and was not recorded yet: at most the slots (perTarget) of a target, since a
 * slot is held until its message's outcome is committed and flushed.
 */

const CHILD = join(process.cwd(), 'test', 'message-worker-child.ts');
const LEASE_MS = 30_000;
/** The worker's e-mail loop: one slot per pooled SMTP connection, so a kill re-sends at most that many. */
const EMAIL_BOUND = SMTP_CONNECTIONS;
/** The worker's WhatsApp loop: 4 slots per company, one HTTP request each. */
const WHATSAPP_BOUND = 4;
/** Receivers answer after this long, as a real server over a network would: the kill lands mid-send. */
const ANSWER_MS = 15;

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What arrived, per recipient, in order; the Message-ID of each e-mail. */
const arrivals = new Map<string, string[]>();
function arrived(recipient: string, id: string) {
  arrivals.set(recipient, [...(arrivals.get(recipient) ?? []), id]);
}
/** Recipients are unique across the file's tests: the receivers count for all of them. */
let nextRecipient = 0;
const receipts = () => [...arrivals.values()].reduce((n, ids) => n + ids.length, 0);

const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  disableReverseLookup: true,
  logger: false,
  onData(stream, _session, callback) {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      void simpleParser(Buffer.concat(chunks)).then(async (mail) => {
        await delay(ANSWER_MS);
        // Accepted from here on: the answer below may never reach a killed sender.
        arrived((mail.to as { text: string }).text, mail.messageId!);
        callback();
      }, callback);
    });
  },
});
// A killed sender resets its connections: not the receiver's failure.
smtp.on('error', () => undefined);
let gateway: Server;
let t: TestApp;
let smtpUrl = '';
let gatewayUrl = '';
let admin: pg.Client;
const children = new Set<ChildProcess>();

beforeAll(async () => {
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
  smtpUrl = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;
  gateway = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', async () => {
      await delay(ANSWER_MS);
      const { to } = JSON.parse(body) as { to: string };
      arrived(to, to);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: `gw-${receipts()}` }));
    });
  });
  await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
  gatewayUrl = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}/send`;
  t = await startTestApp();
  admin = new pg.Client({ connectionString: inject('pgAdminUrl') });
  await admin.connect();
});
afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await admin?.end();
  await t?.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
  await new Promise((resolve) => gateway?.close(resolve));
});

function startWorkerProcess(channel: 'email' | 'whatsapp', clockAt: Date): ChildProcess {
  // node itself with tsx's loader (the tsx CLI would run the worker as a grandchild that SIGKILL misses).
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD], {
    env: {
      ...process.env,
      CHANNEL: channel,
      DATABASE_URL: t.databaseUrl,
      SMTP_URL: smtpUrl,
      SECRET_KEY: t.ctx.config.secretKey,
      PUBLIC_FORM_URL: t.ctx.config.publicFormUrl,
      QUORUM_DATA_DIR: mkdtempSync(join(tmpdir(), 'quorum-child-')),
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      CLOCK_AT: clockAt.toISOString(),
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

async function kill(child: ChildProcess) {
  child.kill('SIGKILL');
  if (child.exitCode === null && child.signalCode === null) await once(child, 'exit');
  // Whatever was on the wire when it died is either whole at the receiver by now or never will be.
  await delay(300);
}

/** A company with `count` invites of one channel, all sent (queued) by one send call. */
async function queued(channel: 'email' | 'whatsapp', count: number) {
  const tenant = await t.tenant();
  const survey = await createSurvey(t, tenant.company.id);
  if (channel === 'whatsapp') {
    await setWhatsappChannel(t.ctx.db, t.ctx, { companyId: tenant.company.id, provider: 'gateway', token: 'gw-token', settings: { url: gatewayUrl, text: 'Hi {{name}}: {{url}}' } });
  }
  const base = `/v1/forms/${survey.form.id}/invites`;
  const recipients: string[] = [];
  for (let i = 0; i < count; i++) {
    const n = nextRecipient++;
    const contact = channel === 'email' ? { email: `p${n}@school.edu` } : { phone: `+5511987${String(100_000 + n)}` };
    const created = await t.post(tenant.token, base, { ...contact, name: `P${n}` });
    expect(created.statusCode).toBe(201);
    recipients.push(channel === 'email' ? contact.email! : contact.phone!);
  }
  const send = await t.post(tenant.token, `${base}/send`, { channel });
  expect(send.json().data.queued).toBe(count);
  return { companyId: tenant.company.id, recipients };
}

/** Recipients whose message the database holds as sent. */
async function recordedSent(companyId: string, channel: 'email' | 'whatsapp'): Promise<Set<string>> {
  const { rows } = await t.ctx.db.execute<{ recipient: string }>(sql`
    SELECT ${channel === 'email' ? sql`i.email` : sql`i.phone`} AS recipient FROM invite_messages m JOIN invites i ON i.id = m.invite_id
     WHERE m.company_id = ${companyId} AND m.status = 'sent'`);
  return new Set(rows.map((row) => row.recipient));
}

/** Arrived at the receiver and not recorded as sent: the next worker sends these again. */
async function unrecorded(companyId: string, channel: 'email' | 'whatsapp', recipients: string[]): Promise<string[]> {
  const sent = await recordedSent(companyId, channel);
  return recipients.filter((r) => arrivals.has(r) && !sent.has(r));
}

async function allSent(companyId: string, count: number, channel: 'email' | 'whatsapp') {
  await expect.poll(async () => (await recordedSent(companyId, channel)).size, { timeout: 150_000, interval: 200 }).toBe(count);
}

/**
 * Kills the worker `kills` times, each time once `step` more messages arrived, and restarts it
 * past the dead worker's leases; the last one finishes. Each kill may leave at most `bound`
 * arrived-but-unrecorded messages, and only those arrive twice.
 */
async function killedMidSend(channel: 'email' | 'whatsapp', count: number, kills: number, bound: number) {
  const { companyId, recipients } = await queued(channel, count);
  const step = Math.floor(count / (kills + 1));
  let clockAt = t.clock.now();
  /** Per kill, what it left arrived-but-unrecorded (not counting an earlier kill's, still waiting for their turn: their leases end later than the others' due times). */
  const leftOver: number[] = [];
  const left = new Set<string>();
  for (let k = 1; k <= kills; k++) {
    const child = startWorkerProcess(channel, clockAt);
    try {
      await expect.poll(() => recipients.filter((r) => arrivals.has(r)).length, { timeout: 150_000, interval: 5 }).toBeGreaterThanOrEqual(k * step);
    } finally {
      await kill(child);
    }
    const now = (await unrecorded(companyId, channel, recipients)).filter((r) => !left.has(r));
    leftOver.push(now.length);
    for (const r of now) left.add(r);
    clockAt = new Date(clockAt.getTime() + LEASE_MS + 1000);
  }
  const last = startWorkerProcess(channel, clockAt);
  try {
    await allSent(companyId, count, channel);
  } finally {
    await kill(last);
  }
  const times = recipients.map((r) => arrivals.get(r)?.length ?? 0);
  const twice = times.filter((n) => n > 1).length;
  return { times, twice, leftOver, recipients, bound };
}

describe('a worker killed mid-send sends again at most its slots', () => {
  it(`e-mail: SIGKILL twice while sending 240 messages over ${SMTP_CONNECTIONS} SMTP connections: every recipient gets it, at most ${EMAIL_BOUND} (one per connection) per kill twice, with one Message-ID`, async () => {
    const run = await killedMidSend('email', 240, 2, EMAIL_BOUND);
    console.warn(`e-mail: arrived-but-unrecorded at each kill ${run.leftOver.join(', ')}; recipients who got it twice ${run.twice}`);
    expect(run.times.every((n) => n >= 1)).toBe(true);
    for (const n of run.leftOver) expect(n).toBeLessThanOrEqual(EMAIL_BOUND);
    expect(run.twice).toBeLessThanOrEqual(run.leftOver.reduce((a, b) => a + b, 0));
    expect(Math.max(...run.times)).toBeLessThanOrEqual(2);
    // A repeat carries the first one's Message-ID: the receiving side can drop it.
    for (const r of run.recipients) expect(new Set(arrivals.get(r)).size).toBe(1);
  }, 600_000);

  it(`WhatsApp (gateway): SIGKILL twice while sending 60 messages: at most ${WHATSAPP_BOUND} (the company's requests under way) per kill twice`, async () => {
    const run = await killedMidSend('whatsapp', 60, 2, WHATSAPP_BOUND);
    console.warn(`WhatsApp: arrived-but-unrecorded at each kill ${run.leftOver.join(', ')}; recipients who got it twice ${run.twice}`);
    expect(run.times.every((n) => n >= 1)).toBe(true);
    for (const n of run.leftOver) expect(n).toBeLessThanOrEqual(WHATSAPP_BOUND);
    expect(run.twice).toBeLessThanOrEqual(run.leftOver.reduce((a, b) => a + b, 0));
    expect(Math.max(...run.times)).toBeLessThanOrEqual(2);
  }, 600_000);

  it(`e-mail: the database away mid-send (sessions killed, connections refused for 2 s): at most ${EMAIL_BOUND} leave meanwhile, their outcomes are recorded once it is back, nobody gets it twice`, async () => {
    const { companyId, recipients } = await queued('email', 160);
    const database = new URL(t.databaseUrl).pathname.slice(1);
    const child = startWorkerProcess('email', t.clock.now());
    let duringOutage = 0;
    try {
      await expect.poll(() => recipients.filter((r) => arrivals.has(r)).length, { timeout: 150_000, interval: 5 }).toBeGreaterThanOrEqual(40);
      await admin.query(`ALTER DATABASE ${database} ALLOW_CONNECTIONS false`);
      await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [database]);
      const atOutage = receipts();
      await delay(2000);
      duringOutage = receipts() - atOutage;
      await admin.query(`ALTER DATABASE ${database} ALLOW_CONNECTIONS true`);
      // The worker survived losing every session, and finishes once its database is back.
      expect(child.exitCode).toBeNull();
      await allSent(companyId, 160, 'email');
    } finally {
      await admin.query(`ALTER DATABASE ${database} ALLOW_CONNECTIONS true`);
      await kill(child);
    }
    console.warn(`database away: ${duringOutage} arrived during the 2 s outage`);
    expect(duringOutage).toBeLessThanOrEqual(EMAIL_BOUND);
    expect(recipients.map((r) => arrivals.get(r)?.length ?? 0)).toEqual(recipients.map(() => 1));
  }, 600_000);
});
