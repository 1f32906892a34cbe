import { setTimeout as sleep } from 'node:timers/promises';
import { running, waitFor } from '../scripts/topology/processes.js';
import type { TopologyState } from '../scripts/topology/state.js';
import { readState } from '../scripts/topology/state.js';
import { restartProcess, switchReplica } from '../scripts/topology/topology.js';
import { SMTP_CONNECTIONS } from '../src/features/messaging/smtp-mailer.js';
import { checkSoak, drain, query, type Fault, type SoakChecks } from './soak-checks.js';
import { limitedKey, prepareTenant, rateLimitProbe, trafficMix, type Receiver, type Request } from './soak-mix.js';
import type { SmtpSink } from '../test/smtp-sink.js';

export interface SoakReport {
  durationMs: number;
  clients: number;
  requests: Request[];
  faults: Fault[];
  rateLimit: { limit: number; admitted: number; limited: number; other: number[] };
  checks: SoakChecks;
}

const RATE_LIMIT = 10;

/**
 * The soak with faults over a running topology (2 API processes, 1 worker at least): the mix for
 * `durationMs` while, at fixed fractions of it, api1 is SIGKILLed and started again, worker1 is
 * SIGKILLed while it holds leases (mid-claim) and started again, one key's limit is spent across
 * the processes, and the replica is stopped and started. Then the worker finishes and the checks run.
 */
export async function soakWithFaults(opts: { dir: string; sink: SmtpSink; receiver: Receiver; durationMs: number; clients: number; log: (line: string) => void }): Promise<SoakReport> {
  const state = (await readState(opts.dir)) as TopologyState;
  const tenant = await prepareTenant(state, opts.receiver, `soak-${Date.now().toString(36)}`, 1_000_000);
  const limitToken = await limitedKey(state, tenant.slug, RATE_LIMIT);
  const [{ n: deadlocksBefore }] = await query<{ n: number }>(state.primaryUrl, `SELECT deadlocks::int AS n FROM pg_stat_database WHERE datname = current_database()`);
  const mix = trafficMix(state.balancerUrl, tenant, opts.sink);
  const faults: Fault[] = [];
  const fault = (what: string) => {
    faults.push({ at: Date.now(), what });
    opts.log(what);
  };
  const pidOf = async (name: string) => (await readState(opts.dir))!.processes.find((p) => p.name === name)!.pid;

  const started = Date.now();
  const at = (fraction: number) => sleep(Math.max(0, started + fraction * opts.durationMs - Date.now()));
  const traffic = mix.run(opts.clients, started + opts.durationMs);
  let rateLimit = { limit: RATE_LIMIT, admitted: 0, limited: 0, other: [] as number[] };
  const script = (async () => {
    await at(0.15);
    const api = await pidOf('api1');
    process.kill(api, 'SIGKILL');
    fault(`SIGKILL api1 (pid ${api})`);
    await waitFor('api1 to die', () => !running(api), 10_000);
    await sleep(2_000);
    await restartProcess(opts.dir, 'api1');
    fault('api1 started again');

    await at(0.3);
    // Mid-claim: the one worker holds leases on messages (a send of five is being mailed).
    let leased = 0;
    await waitFor(
      'worker1 to hold a lease',
      async () => (leased = (await query<{ n: number }>(state.primaryUrl, `SELECT count(*)::int AS n FROM invite_messages WHERE status = 'pending' AND lease_until > now()`))[0].n) > 0,
      60_000,
    );
    const worker = await pidOf('worker1');
    process.kill(worker, 'SIGKILL');
    fault(`SIGKILL worker1 mid-claim (pid ${worker}, ${leased} messages leased)`);
    await waitFor('worker1 to die', () => !running(worker), 10_000);
    await sleep(1_000);
    await restartProcess(opts.dir, 'worker1');
    fault('worker1 started again');

    await at(0.45);
    rateLimit = { limit: RATE_LIMIT, ...(await rateLimitProbe(state.balancerUrl, limitToken, RATE_LIMIT, RATE_LIMIT)) };
    fault(`rate-limit probe: ${rateLimit.admitted} of ${2 * RATE_LIMIT} admitted`);

    await at(0.6);
    fault('replica stop');
    await switchReplica(opts.dir, false);
    await at(0.75);
    await switchReplica(opts.dir, true);
    fault('replica started again');
  })();
  await Promise.all([traffic, script]);
  const durationMs = Date.now() - started;
  opts.log(`traffic over after ${(durationMs / 1000).toFixed(1)} s (${mix.requests.length} requests); waiting for the worker`);
  await drain(state, tenant, opts.receiver, 120_000);
  const checks = await checkSoak({ state, tenant, requests: mix.requests, faults, sink: opts.sink, receiver: opts.receiver, deadlocksBefore, workerKills: 1, smtpConnections: SMTP_CONNECTIONS });
  return { durationMs, clients: opts.clients, requests: mix.requests, faults, rateLimit, checks };
}

/** The report as the bench prints it. */
export function printSoak(report: SoakReport, write: (line: string) => void): void {
  const { checks, requests } = report;
  const byOp = new Map<string, { ok: number; other: number }>();
  for (const r of requests) {
    const entry = byOp.get(r.op) ?? { ok: 0, other: 0 };
    if (r.status >= 200 && r.status < 300) entry.ok++;
    else entry.other++;
    byOp.set(r.op, entry);
  }
  const start = requests[0]?.at ?? 0;
  const rel = (at: number) => `${((at - start) / 1000).toFixed(1)} s`;
  write(`soak: ${(report.durationMs / 1000).toFixed(1)} s, ${report.clients} clients, ${requests.length} requests (${(requests.length / (report.durationMs / 1000)).toFixed(1)}/s)`);
  for (const [op, n] of byOp) write(`  ${op.padEnd(11)} ${String(n.ok).padStart(6)} 2xx ${String(n.other).padStart(4)} other`);
  write('faults:');
  for (const f of report.faults) write(`  ${rel(f.at).padStart(8)}  ${f.what}`);
  write(`accepted writes in the database: ${checks.writes.accepted - checks.writes.missing.length} of ${checks.writes.accepted}${checks.writes.missing.length ? ` MISSING ${checks.writes.missing.join(', ')}` : ''}`);
  write(`events at the receiver (at least once): ${checks.events.stored - checks.events.missing.length} of ${checks.events.stored}`);
  const m = checks.messages;
  write(`messages sent ${m.sent} (pending ${m.pending}): once ${m.once}, twice ${m.twice} (bound ${m.twiceBound}: the killed worker's SMTP slots), more ${m.more}, never arrived ${m.unsent}`);
  write(`quota: used ${checks.quota.used} for ${checks.quota.sent} sent, reserved ${checks.quota.reserved} for ${checks.quota.pending} pending`);
  write(`deadlocks: ${checks.deadlocks.counted} (pg_stat_database), ${checks.deadlocks.logged} in the primary's log; leases left: messages ${checks.leases.messages}, deliveries ${checks.leases.deliveries}, jobs locked by a killed process ${checks.leases.jobs.length}${checks.leases.jobs.length ? ` (${checks.leases.jobs.join(', ')})` : ''}`);
  write(`shared rate limit: ${report.rateLimit.admitted} admitted, ${report.rateLimit.limited} refused (429) of ${2 * report.rateLimit.limit} at once, limit ${report.rateLimit.limit}${report.rateLimit.other.length ? `, other ${report.rateLimit.other.join(',')}` : ''}`);
  write(`client-visible errors: ${checks.errors.length}`);
  for (const e of checks.errors) write(`  ${rel(e.at).padStart(8)}  ${e.op} ${e.status || 'no answer'}  ${e.after ?? 'NOT NEAR A FAULT'}`);
}
