import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { sqlArray } from './sql-array.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

describe('sqlArray', () => {
  it('round-trips texts that would break a hand-built array literal', async () => {
    const values = ['a,b', 'say "hi"', '{braces}', 'back\\slash', 'NULL', '', ' padded ', 'line\nbreak', 'ünï'];
    const { rows } = await t.ctx.db.execute<{ v: string; n: string }>(
      sql`SELECT v, n FROM unnest(${sqlArray('text', values)}) WITH ORDINALITY AS x(v, n) ORDER BY n`,
    );
    expect(rows.map((row) => row.v)).toEqual(values);
  });

  it('passes the whole list as one parameter, cast to the type', () => {
    const { sql: text, params } = new PgDialect().sqlToQuery(sqlArray('uuid', ['a', 'b', 'c']));
    expect(text).toBe('$1::uuid[]');
    expect(params).toEqual([['a', 'b', 'c']]);
  });

  it('keeps nulls and answers = ANY for uuids', async () => {
    const id = '0190a0b0-0000-7000-8000-000000000001';
    const { rows } = await t.ctx.db.execute<{ hit: boolean; nulls: number }>(
      sql`SELECT ${id}::uuid = ANY(${sqlArray('uuid', [id, null])}) AS hit, array_length(array_positions(${sqlArray('text', ['x', null])}, NULL), 1) AS nulls`,
    );
    expect(rows[0]).toEqual({ hit: true, nulls: 1 });
  });
});
