import { createHash } from 'node:crypto';
import type pg from 'pg';

/**
 * The data set of the responses-scan bench: one company, one form of 20 questions with three
 * dims (an entity dim, a number, a date), 1,000,000 responses over one year (BENCH_SCAN_RESPONSES:
 * fewer over the same year, so the filters keep their shares), inserted set-wise
 * (INSERT ... SELECT generate_series in chunks), and a small second form so that filters have
 * other rows of the company to skip.
 */

export const BENCH_COMPANY_SLUG = 'bench-scan';
export const SCAN_FORM_SLUG = 'scan';
export const RESPONSE_COUNT = Number(process.env.BENCH_SCAN_RESPONSES ?? 1_000_000);
const OTHER_FORM_RESPONSES = 20_000;
const CHUNK = 100_000;
const COURSE_COUNT = 50;
/** The responses over one year; row pairs share one millisecond so the id tie-break is exercised. */
const FIRST_CREATED_AT = '2025-03-01T00:00:00.000Z';
const SECONDS_PER_PAIR = Math.round((63 * 1_000_000) / RESPONSE_COUNT);

/** Deterministic UUID-shaped ids, so re-runs and the printed filters stay the same. */
function fixedId(name: string): string {
  const hex = createHash('sha256').update(`bench:${name}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export const COURSE_IDS = Array.from({ length: COURSE_COUNT }, (_, i) => fixedId(`course-${i}`));

type QuestionType = 'RADIO' | 'NPS' | 'STAR' | 'NUMBER' | 'BOOLEAN' | 'TEXT' | 'PARAGRAPH' | 'CHECKBOX' | 'DATE' | 'MATRIX';
const QUESTION_TYPES: QuestionType[] = [
  'RADIO', 'RADIO', 'RADIO', 'RADIO', 'NPS', 'NPS', 'STAR', 'STAR', 'STAR', 'NUMBER',
  'NUMBER', 'BOOLEAN', 'BOOLEAN', 'TEXT', 'TEXT', 'PARAGRAPH', 'CHECKBOX', 'CHECKBOX', 'DATE', 'MATRIX',
];

interface BenchQuestion {
  id: string;
  key: string;
  name: string;
  type: QuestionType;
  mandatory: boolean;
  options?: { id: string; key: string; name: string; order: number }[];
  rows?: { id: string; key: string; name: string; order: number }[];
  columns?: { id: string; key: string; name: string; order: number }[];
}

function choices(prefix: string, count: number) {
  return Array.from({ length: count }, (_, order) => ({ id: fixedId(`${prefix}-${order}`), key: `c${order}`, name: `Choice ${order + 1}`, order }));
}

function benchQuestion(type: QuestionType, index: number): BenchQuestion {
  const key = `q${index + 1}`;
  const question: BenchQuestion = { id: fixedId(key), key, name: `Question ${index + 1}`, type, mandatory: false };
  if (type === 'RADIO' || type === 'CHECKBOX') question.options = choices(`${key}-option`, 5);
  if (type === 'MATRIX') Object.assign(question, { rows: choices(`${key}-row`, 4), columns: choices(`${key}-column`, 5) });
  return question;
}

export const QUESTIONS = QUESTION_TYPES.map(benchQuestion);

/** The stored form content (the forms feature's resolved format). */
function formContent() {
  return {
    version: 1,
    dims: [
      { key: 'course', kind: 'course', source: 'invite' },
      { key: 'year', kind: 'number', source: 'invite' },
      { key: 'sessionDate', kind: 'date', source: 'invite' },
    ],
    sections: [{ id: fixedId('section'), key: 'main', name: 'Main', questions: QUESTIONS }],
  };
}

const sqlText = (value: string) => `'${value.replace(/'/g, "''")}'`;
const sqlTextArray = (values: string[]) => `ARRAY[${values.map(sqlText).join(',')}]`;
/** A pseudo-random integer in [0, n) per row g and salt k. */
const pick = (k: number, n: number) => `(abs(hashint4(g * 31 + ${k})) % ${n})`;

/** The SQL expression of one answer value for row g, valid for the question's type. */
function answerSql(q: BenchQuestion, k: number): string {
  switch (q.type) {
    case 'RADIO':
      return `to_jsonb((${sqlTextArray(q.options!.map((o) => o.id))})[1 + ${pick(k, 5)}])`;
    case 'CHECKBOX':
      return `to_jsonb((${sqlTextArray(q.options!.map((o) => o.id))})[1:1 + ${pick(k, 5)}])`;
    case 'NPS':
      return `to_jsonb(${pick(k, 11)})`;
    case 'STAR':
      return `to_jsonb(1 + ${pick(k, 5)})`;
    case 'NUMBER':
      return `to_jsonb(${pick(k, 1000)})`;
    case 'BOOLEAN':
      return `to_jsonb(${pick(k, 2)} = 1)`;
    case 'TEXT':
      return `to_jsonb('Answer ' || g)`;
    case 'PARAGRAPH':
      return `to_jsonb(repeat('The course was useful and well organised. ', 1 + ${pick(k, 4)}))`;
    case 'DATE':
      return `to_jsonb(to_char(date '2025-01-01' + ${pick(k, 365)}, 'YYYY-MM-DD'))`;
    case 'MATRIX': {
      const columns = sqlTextArray(q.columns!.map((c) => c.id));
      return `jsonb_build_object(${q.rows!.map((row, r) => `${sqlText(row.id)}, (${columns})[1 + ${pick(k + r, 5)}]`).join(', ')})`;
    }
  }
}

function answersSql(): string {
  return `jsonb_build_object(${QUESTIONS.map((q, k) => `${sqlText(q.id)}, ${answerSql(q, k)}`).join(',\n')})`;
}

function dimsSql(): string {
  return `jsonb_build_object(
    'course', (${sqlTextArray(COURSE_IDS)})[1 + ${pick(101, COURSE_COUNT)}],
    'year', (1 + g % 5)::text,
    'sessionDate', to_char(date '2025-09-01' + (g % 300), 'YYYY-MM-DD'))`;
}

/**
 * The id the service mints (src/lib/ids.ts, uuidv7): created_at's milliseconds, then random
 * bits, so a stretch of the scan order sits together in the primary key, as in production.
 */
const UUIDV7_SQL = `overlay(overlay(replace(gen_random_uuid()::text, '-', '')
      placing lpad(to_hex((extract(epoch FROM t) * 1000)::bigint), 12, '0') FROM 1 FOR 12)
      placing '7' FROM 13 FOR 1)::uuid`;

function insertChunkSql(): string {
  return `INSERT INTO responses (id, company_id, form_id, respondent, answers, dims, org_source, completed_at, created_at)
    SELECT ${UUIDV7_SQL}, $1, $2,
      jsonb_build_object('name', 'Student ' || g, 'email', 's' || g || '@example.edu', 'phone', NULL, 'externalId', 'S' || g),
      ${answersSql()},
      ${dimsSql()},
      'link',
      t, t
    FROM generate_series($3::int, $4::int) AS g,
      LATERAL (SELECT $5::timestamptz + ((g / 2) * ${SECONDS_PER_PAIR}) * interval '1 second' AS t) AS created`;
}

async function insertResponses(client: pg.PoolClient, companyId: string, formId: string, count: number, log: (line: string) => void) {
  const sql = insertChunkSql();
  for (let first = 1; first <= count; first += CHUNK) {
    const last = Math.min(first + CHUNK - 1, count);
    await client.query(sql, [companyId, formId, first, last, FIRST_CREATED_AT]);
    log(`  ${last.toLocaleString('en-US')} / ${count.toLocaleString('en-US')} responses`);
  }
}

async function insertForm(client: pg.PoolClient, companyId: string, slug: string): Promise<string> {
  const id = fixedId(`form-${slug}`);
  await client.query(
    `INSERT INTO forms (id, company_id, slug, name, content, dims, question_count, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)`,
    [id, companyId, slug, `Bench ${slug}`, formContent(), JSON.stringify(formContent().dims), QUESTIONS.length, FIRST_CREATED_AT],
  );
  return id;
}

export interface BenchData {
  companyId: string;
  formId: string;
}

/**
 * The seeded data set, reused when a previous run completed it (the form's trigger-kept count)
 * with this seed's ids (version 7; earlier seeds drew version 4); otherwise (re)created.
 */
export async function ensureBenchData(pool: pg.Pool, log: (line: string) => void): Promise<BenchData> {
  const { rows } = await pool.query<{ company_id: string; form_id: string; response_count: number; id_version: string | null }>(
    `SELECT c.id AS company_id, f.id AS form_id, f.response_count,
            (SELECT substr(r.id::text, 15, 1) FROM responses r WHERE r.company_id = c.id AND r.form_id = f.id LIMIT 1) AS id_version
     FROM companies c JOIN forms f ON f.company_id = c.id AND f.slug = $2 WHERE c.slug = $1`,
    [BENCH_COMPANY_SLUG, SCAN_FORM_SLUG],
  );
  if (rows[0]?.response_count === RESPONSE_COUNT && rows[0].id_version === '7') {
    log(`Reusing the seeded data set (${RESPONSE_COUNT.toLocaleString('en-US')} responses).`);
    await rewriteEarlierLayout(pool, log);
    const counted = await pool.query(`SELECT 1 FROM statistics_rollups WHERE company_id = $1 AND form_id = $2 LIMIT 1`, [rows[0].company_id, rows[0].form_id]);
    if (counted.rowCount === 0) await countResponses(pool, rows[0].company_id);
    return { companyId: rows[0].company_id, formId: rows[0].form_id };
  }
  return seed(pool, log);
}

/**
 * A set seeded before migrations 0120 and 0550 keeps their predecessors' layout: most answers in
 * TOAST, and the side table's rows rewritten by 0550's backfill, their dead versions in the
 * files and the visibility map cleared (this machine's autovacuum is off; the statistics bench's
 * deleted submissions leave dead rows too). Rewritten then, so the run measures the layout the
 * migrations give new rows, without dead rows in the way.
 */
async function rewriteEarlierLayout(pool: pg.Pool, log: (line: string) => void): Promise<void> {
  const { rows } = await pool.query<{ toasted: boolean; dead: boolean }>(
    `SELECT pg_relation_size(c.reltoastrelid) > pg_relation_size(c.oid) / 10 AS toasted,
            coalesce((SELECT n_dead_tup > 0 FROM pg_stat_user_tables WHERE relname = 'response_dim_scan'), false) AS dead
     FROM pg_class c WHERE c.oid = 'responses'::regclass`,
  );
  if (!rows[0].toasted && !rows[0].dead) return;
  log('Rewriting the responses tables (answers in TOAST from before migration 0120, or dead side-table rows) ...');
  await pool.query('VACUUM FULL responses, response_dim_scan');
  await pool.query('VACUUM (ANALYZE) responses, response_dim_scan');
}

/**
 * The rollups' response counts (per day and month, whole form and dim value: migration 0520),
 * which filtered totals read; set-wise, as recordResponse would have kept them one by one. Each
 * row's tally holds only the responses item: this bench reads no statistics (bench/statistics.ts
 * rebuilds the whole rollups).
 */
async function countResponses(client: pg.Pool | pg.PoolClient, companyId: string): Promise<void> {
  await client.query(
    `INSERT INTO statistics_rollups (company_id, form_id, cut_key, cut_value, span, day, responses, tally)
     SELECT r.company_id, r.form_id, c.k, c.v, 'day', (r.created_at AT TIME ZONE 'UTC')::date, count(*),
            jsonb_build_object('||responses', jsonb_build_array(count(*), sum(m.ms), sum(m.ms * m.ms), min(m.ms), max(m.ms)))
     FROM responses r
     CROSS JOIN LATERAL (SELECT (extract(epoch FROM r.created_at) * 1000)::numeric AS ms) m
     CROSS JOIN LATERAL (SELECT '' AS k, '' AS v UNION ALL SELECT 'dim:' || d.key, d.value FROM jsonb_each_text(r.dims) d) c
     WHERE r.company_id = $1
     GROUP BY 1, 2, 3, 4, 6`,
    [companyId],
  );
  await client.query(
    `SELECT statistics_rollups_roll_months(company_id, id, '-infinity', 'infinity') FROM forms WHERE company_id = $1`,
    [companyId],
  );
}

async function seed(pool: pg.Pool, log: (line: string) => void): Promise<BenchData> {
  const started = performance.now();
  const client = await pool.connect();
  try {
    await client.query('DELETE FROM companies WHERE slug = $1', [BENCH_COMPANY_SLUG]);
    // The previous set's dead rows out of the files and their indexes, so a reseeded set lies as a first
    // seed's does: a plain vacuum leaves the indexes' emptied pages between the new entries.
    await client.query('VACUUM FULL responses, response_dim_scan, statistics_rollups, statistics_rollup_pending');
    const companyId = fixedId('company');
    await client.query(`INSERT INTO companies (id, name, slug, created_at, updated_at) VALUES ($1, 'Bench', $2, now(), now())`, [companyId, BENCH_COMPANY_SLUG]);
    const formId = await insertForm(client, companyId, SCAN_FORM_SLUG);
    const otherFormId = await insertForm(client, companyId, 'other');
    log(`Seeding ${RESPONSE_COUNT.toLocaleString('en-US')} responses set-wise ...`);
    await insertResponses(client, companyId, formId, RESPONSE_COUNT, log);
    await insertResponses(client, companyId, otherFormId, OTHER_FORM_RESPONSES, () => undefined);
    await countResponses(client, companyId);
    // The machine's autovacuum is off: the side table's visibility map too, or its index-only scans fetch every heap row.
    await client.query('VACUUM (ANALYZE) responses, response_dim_scan');
    log(`Seeded in ${((performance.now() - started) / 1000).toFixed(0)} s.`);
    return { companyId, formId };
  } finally {
    client.release();
  }
}
