import { is } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloneDatabase } from '../../../test/harness.js';
import * as schema from './schema.js';

/** The mirror must match the migrations: same columns, types and nullability, table by table. */
const tables = Object.values(schema as Record<string, unknown>).filter((value): value is PgTable => is(value, PgTable));

let database: Awaited<ReturnType<typeof cloneDatabase>>;
let client: pg.Client;
beforeAll(async () => {
  database = await cloneDatabase();
  client = new pg.Client({ connectionString: database.url });
  await client.connect();
});
afterAll(async () => {
  await client?.end();
  await database?.drop();
});

/** `timestamp (3) with time zone` and `timestamp(3) with time zone` are one type. */
const normalise = (type: string) => type.replace(/\s+\(/g, '(').toLowerCase();

describe('the Drizzle mirror', () => {
  it('covers every migrated table (graphile-worker and the migration log are not ours)', async () => {
    const { rows } = await client.query<{ name: string }>(
      `SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'quorum_migrations' ORDER BY tablename`,
    );
    expect(rows.length).toBeGreaterThanOrEqual(20);
    expect(tables.map((table) => getTableConfig(table).name).sort()).toEqual(rows.map((row) => row.name));
  });

  it.each(tables.map((table) => [getTableConfig(table).name, table] as const))('%s matches the migrated table', async (name, table) => {
    const { rows } = await client.query<{ name: string; type: string; not_null: boolean }>(
      `SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type, a.attnotnull AS not_null
         FROM pg_attribute a
        WHERE a.attrelid = to_regclass($1) AND a.attnum > 0 AND NOT a.attisdropped
        ORDER BY a.attname`,
      [`public.${name}`],
    );
    const mirrored = getTableConfig(table)
      .columns.map((column) => ({ name: column.name, type: normalise(column.getSQLType()), not_null: column.notNull }))
      .sort((a, b) => a.name.localeCompare(b.name));
    expect(mirrored).toEqual(rows.map((row) => ({ ...row, type: normalise(row.type) })));
  });
});
