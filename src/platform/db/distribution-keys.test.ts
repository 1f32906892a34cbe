import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloneDatabase } from '../../../test/harness.js';

/**
 * Keeps the door to Citus open (docs/scaling.md): every table of company data can be distributed by
 * `company_id`, which needs the column on the table (never null), in every primary and unique key,
 * and on both sides of every foreign key between company data. A migration that breaks the rule
 * fails here. The tables below stay whole on every node (Citus reference tables, or the
 * coordinator's own); a foreign key to one of them is allowed from anywhere.
 */
const GLOBAL_TABLES: Record<string, string> = {
  quorum_migrations: 'the migration ledger: one per database, not data',
  companies: 'the tenants themselves: their id is the distribution value',
  users: 'a person may be a member of several companies',
  user_recovery_codes: "a user's second-factor codes, not a company's",
  sessions: 'a panel sign-in belongs to a user and may have no company chosen yet (company_id null)',
  one_time_links: 'sign-in links are sent to a user before a company is chosen (company_id null)',
  audit_records: 'also records sign-in events that belong to no company (company_id null)',
  api_keys: 'looked up by key_id on every request before the company is known; small and read-mostly',
  dev_mail: 'the development mailbox (SMTP_URL unset): never a production table',
};

interface Key {
  table: string;
  name: string;
  kind: 'primary key' | 'unique' | 'foreign key';
  columns: string[];
  referenced: string | null;
  referencedColumns: string[];
}

let database: Awaited<ReturnType<typeof cloneDatabase>>;
let client: pg.Client;
let tables: { name: string; company_id: 'not null' | 'null' | 'absent' }[];
let keys: Key[];
beforeAll(async () => {
  database = await cloneDatabase();
  client = new pg.Client({ connectionString: database.url });
  await client.connect();
  ({ rows: tables } = await client.query(`
    SELECT c.relname AS name,
           CASE WHEN a.attname IS NULL THEN 'absent' WHEN a.attnotnull THEN 'not null' ELSE 'null' END AS company_id
      FROM pg_class c
      LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'company_id' AND NOT a.attisdropped
     WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p')
     ORDER BY 1`));
  // Constraints and unique indexes alike (a unique index binds Citus as a unique constraint does);
  // an expression in an index is a column that is not company_id.
  ({ rows: keys } = await client.query(`
    WITH k AS (
      SELECT c.conrelid AS rel, c.conname AS name,
             CASE c.contype WHEN 'p' THEN 'primary key' WHEN 'u' THEN 'unique' ELSE 'foreign key' END AS kind,
             c.conkey AS cols, c.confrelid AS ref, c.confkey AS refcols
        FROM pg_constraint c
       WHERE c.connamespace = 'public'::regnamespace AND c.contype IN ('p', 'u', 'f')
      UNION ALL
      SELECT i.indrelid, ic.relname, 'unique', i.indkey::int2[], 0, NULL
        FROM pg_index i JOIN pg_class ic ON ic.oid = i.indexrelid
       WHERE ic.relnamespace = 'public'::regnamespace AND i.indisunique
         AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid AND c.contype IN ('p', 'u'))
    )
    SELECT k.rel::regclass::text AS table, k.name, k.kind,
           ARRAY(SELECT coalesce(a.attname::text, '(expression)') FROM unnest(k.cols) WITH ORDINALITY u(n, o)
                   LEFT JOIN pg_attribute a ON a.attrelid = k.rel AND a.attnum = u.n ORDER BY u.o) AS columns,
           CASE WHEN k.ref = 0 THEN NULL ELSE k.ref::regclass::text END AS referenced,
           ARRAY(SELECT a.attname::text FROM unnest(k.refcols) WITH ORDINALITY u(n, o)
                   JOIN pg_attribute a ON a.attrelid = k.ref AND a.attnum = u.n ORDER BY u.o) AS "referencedColumns"
      FROM k ORDER BY 1, 2`));
});
afterAll(async () => {
  await client?.end();
  await database?.drop();
});

const distributed = (table: string) => !(table in GLOBAL_TABLES);
const describeKey = (key: Key) =>
  `${key.table}.${key.name}: ${key.kind} (${key.columns.join(', ')})${key.referenced ? ` → ${key.referenced} (${key.referencedColumns.join(', ')})` : ''}`;

describe('distribution by company_id', () => {
  it('lists only global tables that exist', () => {
    expect(Object.keys(GLOBAL_TABLES).filter((name) => !tables.some((table) => table.name === name))).toEqual([]);
    expect(tables.length).toBeGreaterThan(30);
  });

  it('every table of company data carries company_id, never null', () => {
    const offenders = tables.filter((table) => distributed(table.name) && table.company_id !== 'not null');
    expect(offenders.map((table) => `${table.name}: company_id ${table.company_id}`)).toEqual([]);
  });

  it('every primary and unique key of company data includes company_id', () => {
    const offenders = keys.filter((key) => key.kind !== 'foreign key' && distributed(key.table) && !key.columns.includes('company_id'));
    expect(offenders.map(describeKey)).toEqual([]);
  });

  it('every foreign key between company data pairs company_id with company_id', () => {
    const offenders = keys.filter(
      (key) =>
        key.kind === 'foreign key' &&
        distributed(key.table) &&
        distributed(key.referenced!) &&
        !key.columns.some((column, i) => column === 'company_id' && key.referencedColumns[i] === 'company_id'),
    );
    expect(offenders.map(describeKey)).toEqual([]);
  });

  it('a table of company data refers to a global table only by a foreign key, never the other way', () => {
    const offenders = keys.filter((key) => key.kind === 'foreign key' && !distributed(key.table) && distributed(key.referenced!));
    expect(offenders.map(describeKey)).toEqual([]);
  });
});
