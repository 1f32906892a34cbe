import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { emit, manualLoop, startReceiver, subscribe, type Receiver } from '../../../test/webhooks.js';
import { ABANDONED_ERROR } from './deliver-claim.js';

const CHILD = join(process.cwd(), 'test', 'delivery-worker-child.ts');
const LEASE_MS = 30_000;

let t: TestApp;
let receiver: Receiver;
beforeAll(async () => {
  t = await startTestApp();
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await t?.close();
});

function startChildWorker(): ChildProcess {
  // node itself with tsx's loader (the tsx CLI would run the worker as a grandchild that SIGKILL misses).
  return spawn(process.execPath, ['--import', 'tsx', CHILD], {
    env: {
      ...process.env,
      DATABASE_URL: t.databaseUrl,
      SECRET_KEY: t.ctx.config.secretKey,
      QUORUM_DATA_DIR: mkdtempSync(join(tmpdir(), 'quorum-child-')),
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      CLOCK_AT: t.clock.now().toISOString(),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

describe('a worker killed mid-delivery', () => {
  it('loses nothing: after its leases expire another worker delivers every event', async () => {
    const { company } = await t.tenant();
    await subscribe(t, company.id, receiver.url());
    const answered = new Set<string>();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    receiver.respond = () => ({ status: 200, after: held });
    const events = [];
    for (let i = 0; i < 6; i++) events.push(await emit(t, company.id, 'ping', { message: `event ${i}` }));

    const child = startChildWorker();
    try {
      // Under the per-subscription cap (16), the child holds all six requests open at the receiver.
      await expect.poll(() => receiver.received.length, { timeout: 20_000 }).toBe(6);
      child.kill('SIGKILL');
      await once(child, 'exit');
    } finally {
      child.kill('SIGKILL');
    }
    release();
    receiver.respond = (request) => {
      answered.add(String(request.headers['webhook-id']));
      return { status: 200 };
    };

    const survivor = await manualLoop(t);
    try {
      // The dead worker's leases still count against the subscription's cap until they expire.
      await survivor.drain();
      expect(answered.size).toBe(0);
      t.clock.advance(LEASE_MS);
      await survivor.drain();
    } finally {
      await survivor.stop();
    }
    expect([...answered].sort()).toEqual(events.map((e) => e.id).sort());

    const { rows } = await t.ctx.pool.query(
      `SELECT d.status, d.attempts, array_agg(a.error ORDER BY a.attempt) AS errors, array_agg(a.status_code ORDER BY a.attempt) AS codes
       FROM webhook_deliveries d JOIN webhook_attempts a ON a.delivery_id = d.id
       WHERE d.company_id = $1 GROUP BY d.company_id, d.id ORDER BY d.attempts`,
      [company.id],
    );
    // The child had leased and sent all six: each lost attempt is logged and counts.
    for (const row of rows) expect(row).toMatchObject({ status: 'succeeded', attempts: 2, errors: [ABANDONED_ERROR, null], codes: [null, 200] });
    expect(rows).toHaveLength(6);
  });
});
