import { afterAll, beforeAll, expect, it } from 'vitest';
import pg from 'pg';
import { inject } from 'vitest';
import { openPool, type Database } from './database.js';

let database: Database;
let admin: pg.Client;
beforeAll(async () => {
  database = openPool(inject('pgAdminUrl'), 2);
  admin = new pg.Client({ connectionString: inject('pgAdminUrl') });
  await admin.connect();
});
afterAll(async () => {
  await admin.end();
  await database.close();
});

it('a checked-out client whose server connection dies between queries does not take the process down; its next query fails and the pool recovers', async () => {
  const client = await database.pool.connect();
  const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  const died = new Promise<void>((resolve) => client.connection.once('end', () => resolve()));
  // What a Postgres crash or restart does to every session: the server closes the connection.
  await admin.query('SELECT pg_terminate_backend($1)', [rows[0].pid]);
  await died;
  // Without a listener on the client the 'error' event above is thrown as an uncaught exception.
  await expect(client.query('SELECT 1')).rejects.toThrow();
  client.release(true);
  const again = await database.pool.query<{ one: number }>('SELECT 1 AS one');
  expect(again.rows[0].one).toBe(1);
});
