import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { cloneDatabase, testDatabaseUrl } from '../../../test/harness.js';
import { migrate } from './migrate.js';

describe('the migration runner', () => {
  const name = `quorum_m_${process.pid}_${Date.now()}`;
  const dir = mkdtempSync(join(tmpdir(), 'quorum-migrations-'));
  let admin: pg.Client;
  let pool: pg.Pool;
  beforeAll(async () => {
    admin = new pg.Client({ connectionString: inject('pgAdminUrl') });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    pool = new pg.Pool({ connectionString: testDatabaseUrl(name), max: 2 });
    // The forced drop below may reach a connection the pool is still closing.
    pool.on('error', () => undefined);
  });
  afterAll(async () => {
    await pool?.end();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
    rmSync(dir, { recursive: true, force: true });
  });

  it('applies new files once and refuses an applied file whose text changed, naming it', async () => {
    writeFileSync(join(dir, '0001_one.sql'), 'CREATE TABLE one (id int);\n');
    writeFileSync(join(dir, '0002_two.sql'), 'CREATE TABLE two (id int);\n');
    expect((await migrate(pool, { dir })).applied).toEqual(['0001_one.sql', '0002_two.sql']);
    expect((await migrate(pool, { dir })).applied).toEqual([]);

    // The same text with CRLF line endings (a checkout that converts them) is no edit.
    writeFileSync(join(dir, '0001_one.sql'), 'CREATE TABLE one (id int);\r\n');
    expect((await migrate(pool, { dir })).applied).toEqual([]);

    writeFileSync(join(dir, '0002_two.sql'), 'CREATE TABLE two (id bigint);\n');
    writeFileSync(join(dir, '0003_three.sql'), 'CREATE TABLE three (id int);\n');
    await expect(migrate(pool, { dir })).rejects.toThrow(/0002_two\.sql changed after it was applied/);
    // Nothing ran: the pending one waits until the edited file is restored.
    const { rows } = await pool.query(`SELECT to_regclass('three') AS t`);
    expect(rows[0].t).toBeNull();

    writeFileSync(join(dir, '0002_two.sql'), 'CREATE TABLE two (id int);\n');
    expect((await migrate(pool, { dir })).applied).toEqual(['0003_three.sql']);
  });

  it('adopts the current text of rows applied before checksums were kept', async () => {
    await pool.query(`UPDATE quorum_migrations SET checksum = NULL WHERE name = '0001_one.sql'`);
    expect((await migrate(pool, { dir })).applied).toEqual([]);
    const { rows } = await pool.query(`SELECT checksum FROM quorum_migrations WHERE name = '0001_one.sql'`);
    expect(rows[0].checksum).toMatch(/^[0-9a-f]{64}$/);
    writeFileSync(join(dir, '0001_one.sql'), 'CREATE TABLE one (id text);\n');
    await expect(migrate(pool, { dir })).rejects.toThrow(/0001_one\.sql changed/);
  });

  it("records a checksum for every one of the service's own migrations", async () => {
    const database = await cloneDatabase();
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const { rows } = await client.query(`SELECT name FROM quorum_migrations WHERE name LIKE '%.sql' AND checksum IS NULL`);
      expect(rows).toEqual([]);
    } finally {
      await client.end();
      await database.drop();
    }
  });
});
