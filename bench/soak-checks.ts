import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import type { TopologyState } from '../scripts/topology/state.js';
import type { SmtpSink } from '../test/smtp-sink.js';
import type { Receiver, Request, Tenant } from './soak-mix.js';

/** A fault the soak injected, and when (Date.now()). */
export interface Fault {
  at: number;
  what: string;
}

/** What the soak found at the end: each check's figures and whether it holds. */
export interface SoakChecks {
  writes: { accepted: number; missing: string[] };
  events: { stored: number; missing: string[] };
  messages: { sent: number; pending: number; once: number; twice: number; more: number; unsent: number; twiceBound: number };
  quota: { used: number; reserved: number; sent: number; pending: number };
  deadlocks: { counted: number; logged: number };
  leases: { messages: number; deliveries: number; jobs: string[] };
  errors: { at: number; op: string; status: number; retryAfter: boolean; after: string | null }[];
}

export async function query<T extends pg.QueryResultRow>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** Pending messages and deliveries of the company: the worker's work still to do. */
async function outstanding(state: TopologyState, tenant: Tenant): Promise<number> {
  const [row] = await query<{ n: number }>(
    state.primaryUrl,
    `SELECT (SELECT count(*) FROM invite_messages WHERE company_id = $1 AND status = 'pending')::int
          + (SELECT count(*) FROM webhook_deliveries WHERE company_id = $1 AND status = 'pending')::int AS n`,
    [tenant.companyId],
  );
  return row.n;
}

/**
 * Waits until the worker has done everything (a killed worker's leases end after 30 s, then its
 * items are claimed again) and the receivers have every event and message, or `timeoutMs` passed.
 */
export async function drain(state: TopologyState, tenant: Tenant, receiver: Receiver, timeoutMs: number): Promise<void> {
  for (const started = Date.now(); Date.now() - started < timeoutMs; await sleep(500)) {
    if ((await outstanding(state, tenant)) > 0) continue;
    const events = await query<{ id: string }>(state.primaryUrl, 'SELECT id FROM events WHERE company_id = $1', [tenant.companyId]);
    if (events.every((e) => receiver.arrivals.has(e.id))) return;
  }
}

/** Faults that make a client-visible error expected: an API process dying, the replica going away. */
const CAUSES = /^(SIGKILL api|replica stop)/;
/** How long after such a fault an error is still its doing: HAProxy's checks (2 × 500 ms), the pool's retry (5 s). */
export const ERROR_WINDOW_MS = 6_000;

export async function checkSoak(opts: {
  state: TopologyState;
  tenant: Tenant;
  requests: Request[];
  faults: Fault[];
  sink: SmtpSink;
  receiver: Receiver;
  deadlocksBefore: number;
  workerKills: number;
  smtpConnections: number;
}): Promise<SoakChecks> {
  const { state, tenant, requests } = opts;
  const primary = <T extends pg.QueryResultRow>(text: string) => query<T>(state.primaryUrl, text, [tenant.companyId]);

  const invites = new Set((await primary<{ id: string }>('SELECT id FROM invites WHERE company_id = $1')).map((r) => r.id));
  const responses = new Set((await primary<{ id: string }>('SELECT id FROM responses WHERE company_id = $1')).map((r) => r.id));
  const accepted = requests.filter((r) => r.id);
  const missing = accepted.filter((r) => !(r.op === 'invite' ? invites : responses).has(r.id!)).map((r) => `${r.op} ${r.id}`);
  // A send answered 200 queued its messages: each invite it named has one.
  const withMessage = new Set((await primary<{ invite_id: string }>('SELECT invite_id FROM invite_messages WHERE company_id = $1')).map((r) => r.invite_id));
  for (const send of requests.filter((r) => r.op === 'send' && r.status === 200)) {
    for (const id of send.inviteIds ?? []) if (!withMessage.has(id)) missing.push(`send ${id}`);
  }

  const events = await primary<{ id: string }>('SELECT id FROM events WHERE company_id = $1');

  const messages = await primary<{ email: string; status: string }>(`SELECT i.email, m.status FROM invite_messages m JOIN invites i ON i.company_id = m.company_id AND i.id = m.invite_id WHERE m.company_id = $1`);
  const arrivals = new Map<string, number>();
  for (const mail of opts.sink.received) {
    const to = (mail.to as { text: string } | undefined)?.text ?? '';
    arrivals.set(to, (arrivals.get(to) ?? 0) + 1);
  }
  const sent = messages.filter((m) => m.status === 'sent');
  const times = sent.map((m) => arrivals.get(m.email) ?? 0);

  const [quota] = await primary<{ used: number; reserved: number }>('SELECT coalesce(sum(used), 0)::int AS used, coalesce(sum(reserved), 0)::int AS reserved FROM quota_usage WHERE company_id = $1');

  const [deadlocks] = await query<{ n: number }>(state.primaryUrl, `SELECT deadlocks::int AS n FROM pg_stat_database WHERE datname = current_database()`);
  const primaryLog = await readFile(path.join(state.dir, 'logs', 'primary.log'), 'utf8').catch(() => '');
  const [leases] = await primary<{ messages: number; deliveries: number }>(
    `SELECT (SELECT count(*) FROM invite_messages WHERE company_id = $1 AND status = 'pending')::int AS messages,
            (SELECT count(*) FROM webhook_deliveries WHERE company_id = $1 AND status = 'pending')::int AS deliveries`,
  );
  // graphile-worker's job locks taken before the first kill are the dead processes' (a live one
  // renews none; graphile frees a lock after 4 h): stuck.
  const firstKill = opts.faults.find((f) => f.what.startsWith('SIGKILL'))?.at ?? Date.now();
  const stuckJobs = await query<{ task: string; locked_at: Date }>(
    state.primaryUrl,
    `SELECT t.identifier AS task, j.locked_at FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id
      WHERE j.locked_at IS NOT NULL AND j.locked_at < $1`,
    [new Date(firstKill)],
  );

  const causes = opts.faults.filter((f) => CAUSES.test(f.what));
  const errors = requests
    .filter((r) => r.status === 0 || r.status >= 500)
    .map((r) => {
      const cause = causes.filter((f) => f.at <= r.at + 1_000 && r.at - f.at <= ERROR_WINDOW_MS).at(-1);
      return { at: r.at, op: r.op, status: r.status, retryAfter: r.retryAfter === true, after: cause ? `${r.at - cause.at >= 0 ? '+' : ''}${r.at - cause.at} ms from ${cause.what}` : null };
    });

  return {
    writes: { accepted: accepted.length + requests.filter((r) => r.op === 'send' && r.status === 200).length, missing },
    events: { stored: events.length, missing: events.filter((e) => !opts.receiver.arrivals.has(e.id)).map((e) => e.id) },
    messages: {
      sent: sent.length,
      pending: messages.filter((m) => m.status === 'pending').length,
      once: times.filter((n) => n === 1).length,
      twice: times.filter((n) => n === 2).length,
      more: times.filter((n) => n > 2).length,
      unsent: times.filter((n) => n === 0).length,
      twiceBound: opts.workerKills * opts.smtpConnections,
    },
    quota: { used: quota.used, reserved: quota.reserved, sent: sent.length, pending: messages.filter((m) => m.status === 'pending').length },
    deadlocks: { counted: deadlocks.n - opts.deadlocksBefore, logged: (primaryLog.match(/deadlock detected/g) ?? []).length },
    leases: { messages: leases.messages, deliveries: leases.deliveries, jobs: stuckJobs.map((j) => `${j.task} locked ${j.locked_at.toISOString()}`) },
    errors,
  };
}
