import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { isConnectionLoss } from './connection-loss.js';

/** isConnectionLoss on errors a real server gives: a session terminated mid-statement, a refused connection, a statement's own fault. */
let admin: pg.Client;
beforeAll(async () => {
  admin = new pg.Client({ connectionString: inject('pgAdminUrl') });
  await admin.connect();
});
afterAll(() => admin?.end());

/** What a query running on a session that the server terminates (as `pg_ctl stop -m fast` does) fails with. */
async function terminatedMidStatement(): Promise<unknown> {
  const victim = new pg.Client({ connectionString: inject('pgAdminUrl'), application_name: 'connection-loss-test' });
  await victim.connect();
  victim.on('error', () => undefined);
  const { rows } = await victim.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  const running = victim.query('SELECT pg_sleep(30)').catch((err: unknown) => err);
  await admin.query('SELECT pg_terminate_backend($1)', [rows[0].pid]);
  const error = await running;
  await victim.end().catch(() => undefined);
  return error;
}

describe('isConnectionLoss', () => {
  it('is true for a statement whose session the server terminated, bare or wrapped as Drizzle wraps it', async () => {
    const error = await terminatedMidStatement();
    expect((error as { code?: string }).code).toBe('57P01');
    expect(isConnectionLoss(error)).toBe(true);
    expect(isConnectionLoss(new Error('Failed query: SELECT ...', { cause: error }))).toBe(true);
  });

  it('is true for a connection the server refuses', async () => {
    const client = new pg.Client({ host: '127.0.0.1', port: 1, connectionTimeoutMillis: 2_000 });
    const error = await client.connect().catch((err: unknown) => err);
    expect(isConnectionLoss(error)).toBe(true);
  });

  it("is false for the statement's own faults and for anything else", async () => {
    expect(isConnectionLoss(await admin.query('SELECT * FROM no_such_table').catch((err: unknown) => err))).toBe(false);
    expect(isConnectionLoss(await admin.query('SELECT 1/0').catch((err: unknown) => err))).toBe(false);
    expect(isConnectionLoss(new Error('boom'))).toBe(false);
    expect(isConnectionLoss('not an error')).toBe(false);
  });
});
