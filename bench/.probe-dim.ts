import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { responsePageSql, type ListResponsesInput, type ScanPosition } from '../src/features/responses/list-responses.js';
import { COURSE_IDS } from './responses-scan-seed.js';

const dialect = new PgDialect();
const pool = new pg.Pool({ connectionString: 'postgres://postgres@127.0.0.1:5432/quorum_bench_statistics', max: 2 });
const { rows: [form] } = await pool.query(`SELECT company_id, id FROM forms WHERE slug = 'scan' AND response_count = 1000000`);
const base = { companyId: form.company_id, formId: form.id, limit: 100, includeAnswers: true };
const cases: [string, Record<string, string>][] = [['unfiltered', {}], ['year', { year: '3' }], ['course', { course: COURSE_IDS[0] }], ['sessionDate', { sessionDate: process.env.DAY ?? '2026-01-29' }]];
const PAGES = Number(process.env.PAGES ?? 60);
async function pages(input: ListResponsesInput, w: boolean | undefined) {
  // start position: just after the newest row
  let position: ScanPosition = { t: '2030-01-01T00:00:00.000Z', id: 'ffffffff-ffff-ffff-ffff-ffffffffffff', s: 10_000_000, w };
  const times: number[] = [];
  for (let i = 0; i < PAGES; i++) {
    const q = dialect.sqlToQuery(responsePageSql(input, position));
    const started = performance.now();
    const { rows } = await pool.query({ text: q.sql, values: q.params });
    times.push(performance.now() - started);
    const last = rows[Math.min(rows.length, 100) - 1];
    if (!last || rows.length <= 100) break;
    position = { ...position, t: last.createdAt, id: last.id };
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}
for (let round = 0; round < 3; round++) {
  for (const [label, dims] of cases) {
    const input = { ...base, dims } as ListResponsesInput;
    const walk = await pages(input, true);
    const side = label === 'unfiltered' ? NaN : await pages(input, false);
    console.log(`${label.padEnd(12)} walk p50 ${walk.toFixed(2)} ms   side table p50 ${side.toFixed(2)} ms`);
  }
}
await pool.end();
