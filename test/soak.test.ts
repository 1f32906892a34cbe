import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { soakWithFaults, type SoakReport } from '../bench/soak-run.js';
import { startOutlets } from '../bench/soak-mix.js';
import { startTopology, stopTopology } from '../scripts/topology/topology.js';

/**
 * The soak with faults (issue 27, item 2), short: 35 s of the bench's mix through HAProxy (2 API
 * processes, 1 worker, a streaming replica) while api1 and the worker (mid-claim) are SIGKILLed and
 * started again and the replica is stopped and started; the bench's checks as asserts
 * (`npm run bench -- soak` is the long version with its figures).
 */
const dir = mkdtempSync(join(tmpdir(), 'quorum-soak-test-'));
let outlets: Awaited<ReturnType<typeof startOutlets>>;
let report: SoakReport;

beforeAll(async () => {
  outlets = await startOutlets();
  await startTopology({ dir, apis: 2, workers: 1, source: true, env: outlets.env, log: () => undefined });
  report = await soakWithFaults({ dir, sink: outlets.sink, receiver: outlets.receiver, durationMs: 35_000, clients: 3, log: () => undefined });
}, 420_000);
afterAll(async () => {
  await stopTopology(dir, () => undefined).catch(() => undefined);
  await outlets?.sink.close();
  await outlets?.receiver.close();
  rmSync(dir, { recursive: true, force: true });
}, 120_000);

describe('the soak with faults', () => {
  it('ran every part of the mix and every fault', () => {
    const ops = new Set(report.requests.filter((r) => r.status >= 200 && r.status < 300).map((r) => r.op));
    expect([...ops].sort()).toEqual(['events', 'invite', 'open', 'scan', 'send', 'statistics', 'submit']);
    expect(report.faults.map((f) => f.what.replace(/ \(pid \d+.*\)$/, ''))).toEqual([
      'SIGKILL api1',
      'api1 started again',
      'SIGKILL worker1 mid-claim',
      'worker1 started again',
      expect.stringMatching(/^rate-limit probe/),
      'replica stop',
      'replica started again',
    ]);
  });

  it('keeps every accepted write, delivers every event, sends every message once or (in flight at the kill) twice', () => {
    const { writes, events, messages } = report.checks;
    expect(writes.missing).toEqual([]);
    expect(events.stored).toBeGreaterThan(0);
    expect(events.missing).toEqual([]);
    expect(messages.sent).toBeGreaterThan(0);
    expect({ pending: messages.pending, more: messages.more, unsent: messages.unsent }).toEqual({ pending: 0, more: 0, unsent: 0 });
    expect(messages.twice).toBeLessThanOrEqual(messages.twiceBound);
  });

  it('counts the quota exactly, with no deadlock and no lease left behind', () => {
    const { quota, deadlocks, leases } = report.checks;
    expect(quota.used).toBe(quota.sent);
    expect(quota.reserved).toBe(0);
    expect(deadlocks).toEqual({ counted: 0, logged: 0 });
    expect(leases).toEqual({ messages: 0, deliveries: 0, jobs: [] });
  });

  it("admits exactly one key's limit across the API processes", () => {
    expect(report.rateLimit).toMatchObject({ admitted: report.rateLimit.limit, limited: report.rateLimit.limit, other: [] });
  });

  it("shows clients errors only while a process was dying or the replica going away, never a 500 but a lost connection's (with retry-after)", () => {
    const { errors } = report.checks;
    expect(errors.filter((e) => e.after === null)).toEqual([]);
    expect(errors.filter((e) => ![0, 502, 503, 504].includes(e.status) && !(e.status === 500 && e.retryAfter))).toEqual([]);
  });
});
