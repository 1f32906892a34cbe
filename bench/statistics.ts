import { loadavg } from 'node:os';
import { sql } from 'drizzle-orm';
import { noDeps } from '../src/lib/service.js';
import { findFormBySlug } from '../src/features/forms/find-form.js';
import { recordResponse } from '../src/features/responses/record-response.js';
import type { ResponseHandler } from '../src/features/responses/response-consumer.js';
import { rollupsConsumer } from '../src/features/statistics/apply-response-to-rollups.js';
import { getReport } from '../src/features/statistics/get-report.js';
import { getStatistics } from '../src/features/statistics/get-statistics.js';
import { foldPendingRollups } from '../src/features/statistics/fold-pending-rollups.js';
import { rebuildRollupsOfDay, rebuildRollupsOfForm } from '../src/features/statistics/rebuild-rollups.js';
import type { ResolvedForm } from '../src/features/forms/definition/index.js';
import { ManualClock } from '../src/lib/clock.js';
import { idGeneratorFor } from '../src/lib/ids.js';
import { ensureBenchData, QUESTIONS, RESPONSE_COUNT } from './responses-scan-seed.js';
import { benchDatabase, printTable } from './support.js';

/**
 * Statistics on 1,000,000 responses (the responses-scan data set, seeded set-wise; in its own
 * database unless BENCH_DATABASE_URL shares one): the whole-form figures and a 50-group report
 * (dim.course) from the rollups, each beside the brute-force SQL aggregate of the same cut (every
 * answer value counted per question, and per course), and what the rollups add to one
 * recordResponse of the 20-question form (submissions per second with and without them), and what
 * folding those submissions into the rollups costs the sweep.
 */
const ROUNDS = 5;
/** The brute-force aggregates read 20,000,000 answers each: fewer rounds. */
const BRUTE_ROUNDS = 3;
const SUBMISSIONS = 300;
/** Submissions land on a day of the data set, so they merge into full day and month rows. */
const SUBMIT_DAY = '2025-06-15';

async function median(work: () => Promise<unknown>, rounds = ROUNDS): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const started = performance.now();
    await work();
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[Math.floor(rounds / 2)];
}

/** One answer of every question of the bench form (responses-scan-seed.ts), as a respondent would send it. */
function fullAnswers(): Record<string, unknown> {
  const answer = (q: (typeof QUESTIONS)[number], i: number): unknown => {
    switch (q.type) {
      case 'RADIO':
        return q.options![i % 5].id;
      case 'CHECKBOX':
        return q.options!.slice(0, 2).map((o) => o.id);
      case 'NPS':
        return 8;
      case 'STAR':
        return 4;
      case 'NUMBER':
        return 100 + i;
      case 'BOOLEAN':
        return true;
      case 'DATE':
        return '2025-05-01';
      case 'MATRIX':
        return Object.fromEntries(q.rows!.map((row, r) => [row.id, q.columns![r].id]));
      default:
        return 'A submitted answer';
    }
  };
  return Object.fromEntries(QUESTIONS.map((q, i) => [q.id, answer(q, i)]));
}

const BENCH_COURSE = 'bench-course';

/** Removes the submissions of this bench (also those a stopped run left) and rebuilds their day and month. */
async function removeSubmissions(db: Awaited<ReturnType<typeof benchDatabase>>['db'], companyId: string, formId: string, form: ResolvedForm) {
  await db.transaction(async (tx) => {
    await tx.execute(sql`DELETE FROM responses WHERE company_id = ${companyId} AND form_id = ${formId} AND dims->>'course' = ${BENCH_COURSE}`);
    await rebuildRollupsOfDay(tx, companyId, formId, form, SUBMIT_DAY);
  });
}

export async function run(): Promise<void> {
  const database = await benchDatabase('quorum_bench_statistics');
  const { db, pool } = database;
  const log = (line: string) => console.log(line);
  const { companyId, formId } = await ensureBenchData(pool, log);
  const form = (await findFormBySlug(db, noDeps, { companyId, slug: 'scan' }))!;
  await removeSubmissions(db, companyId, formId, form.content);

  // Full rollups (not only the response counts the scan bench keeps) when every response is in a day row that has the first question.
  const answeredKey = `${QUESTIONS[0].id}|RADIO|answered`;
  const { rows: rolled } = await pool.query(
    `SELECT coalesce(sum(responses), 0)::int8 AS n FROM statistics_rollups WHERE form_id = $1 AND cut_key = '' AND span = 'day' AND tally ? $2`,
    [formId, answeredKey],
  );
  if (Number(rolled[0].n) !== RESPONSE_COUNT) {
    const started = performance.now();
    log('Building the rollups with rebuildRollupsOfForm (a UTC day per read and insert, then the months) ...');
    await db.transaction((tx) => rebuildRollupsOfForm(tx, noDeps, { companyId, formId, form: form.content }));
    await pool.query('VACUUM (ANALYZE) statistics_rollups');
    log(`Rollups built in ${((performance.now() - started) / 1000).toFixed(0)} s.`);
  }
  const { rows: size } = await pool.query(
    `SELECT count(*) AS rows, pg_size_pretty(pg_total_relation_size('statistics_rollups')) AS size, pg_size_pretty(pg_total_relation_size('responses')) AS responses
     FROM statistics_rollups WHERE form_id = $1`,
    [formId],
  );
  log(`Rollups of the form: ${size[0].rows} rows; table ${size[0].size} (responses table ${size[0].responses}).`);

  const deps = { scanCeiling: 200_000 };
  const query = { companyId, formId, dims: {} };
  const byCourse = { ...query, groupBy: { kind: 'dim' as const, key: 'course' } };
  const whole = await getStatistics(db, deps, query);
  const report = await getReport(db, deps, byCourse);
  const grouped = report.groups.reduce((sum, g) => sum + (g.statistics?.responseCount ?? 0), 0);
  log(`whole form: ${whole.responseCount} responses, truncated ${whole.truncated}; report: ${report.groups.length} groups, ${grouped} responses, truncated ${report.truncated}`);
  if (whole.truncated || report.truncated || whole.responseCount !== RESPONSE_COUNT || grouped !== RESPONSE_COUNT || report.groups.length !== 50) {
    throw new Error('The figures are not complete.');
  }

  const bruteWhole = `SELECT a.key, a.value, count(*) FROM responses r, jsonb_each(r.answers) a WHERE r.company_id = $1 AND r.form_id = $2 GROUP BY 1, 2`;
  const bruteReport = `SELECT r.dims->>'course', a.key, a.value, count(*) FROM responses r, jsonb_each(r.answers) a
    WHERE r.company_id = $1 AND r.form_id = $2 GROUP BY 1, 2, 3`;
  log(`load average before the reads: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  const wholeMs = await median(() => getStatistics(db, deps, query));
  const wholeBruteMs = await median(() => pool.query(bruteWhole, [companyId, formId]), BRUTE_ROUNDS);
  const reportMs = await median(() => getReport(db, deps, byCourse));
  const reportBruteMs = await median(() => pool.query(bruteReport, [companyId, formId]), BRUTE_ROUNDS);
  printTable([
    { cut: 'whole form (1M)', 'rollups ms': wholeMs, 'brute-force SQL ms': wholeBruteMs, ratio: wholeBruteMs / wholeMs },
    { cut: 'report by course (50 groups)', 'rollups ms': reportMs, 'brute-force SQL ms': reportBruteMs, ratio: reportBruteMs / reportMs },
  ]);

  // Submissions: one transaction each, the 20 questions answered, on a day of the data set;
  // with the rollups (the statistics consumer), and without (no consumer: the same validation and insert).
  const clock = new ManualClock(Date.parse(`${SUBMIT_DAY}T12:00:00Z`));
  const submitDeps = (consumers: ResponseHandler[]) => ({ clock, newId: idGeneratorFor(clock), eventConsumers: [], responseConsumers: consumers });
  const answers = fullAnswers();
  const dims = { course: BENCH_COURSE, year: '3', sessionDate: '2025-10-01' };
  const timeSubmissions = async (consumers: ResponseHandler[]) => {
    const started = performance.now();
    for (let i = 0; i < SUBMISSIONS; i++) {
      clock.advance(1_000);
      await db.transaction((tx) => recordResponse(tx, submitDeps(consumers), { form, answers, dims }));
    }
    return (SUBMISSIONS * 1000) / (performance.now() - started);
  };
  // A submission adds a pending row (migration 0540); the fold sweep merges them into the day and
  // month rows. Its time is measured after each run with the rollups, and the whole-form read
  // with that run's 300 responses still pending.
  const fold = async () => {
    const started = performance.now();
    const folded = await foldPendingRollups(db, noDeps);
    if (folded !== SUBMISSIONS) throw new Error(`folded ${folded} pending responses, not ${SUBMISSIONS}`);
    return performance.now() - started;
  };
  log(`load average before the submissions: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  const runs: { withRollups: number; withoutRollups: number; foldMs: number; pendingReadMs: number }[] = [];
  for (let run = 0; run < 2; run++) {
    const withRollups = await timeSubmissions([rollupsConsumer]);
    const pendingReadMs = await median(() => getStatistics(db, deps, query), 3);
    const foldMs = await fold();
    const withoutRollups = await timeSubmissions([]);
    runs.push({ withRollups, withoutRollups, foldMs, pendingReadMs });
  }
  const both = (pick: (r: (typeof runs)[number]) => number, digits = 0) => runs.map((r) => pick(r).toFixed(digits)).join(', ');
  printTable([
    { recordResponse: 'with rollups (1st, 2nd run)', 'submissions/s': both((r) => r.withRollups) },
    { recordResponse: 'without (no consumer: same validation and insert)', 'submissions/s': both((r) => r.withoutRollups) },
    { recordResponse: `with rollups, the fold of the run's ${SUBMISSIONS} counted in`, 'submissions/s': both((r) => (SUBMISSIONS * 1000) / ((SUBMISSIONS * 1000) / r.withRollups + r.foldMs)) },
  ]);
  const ratio = (pick: (r: (typeof runs)[number]) => number) => (runs.reduce((sum, r) => sum + pick(r), 0) / runs.reduce((sum, r) => sum + r.withoutRollups, 0)).toFixed(2);
  log(`with ÷ without: ${ratio((r) => r.withRollups)} (fold counted in: ${ratio((r) => (SUBMISSIONS * 1000) / ((SUBMISSIONS * 1000) / r.withRollups + r.foldMs))})`);
  log(`fold of ${SUBMISSIONS} pending submissions: ${both((r) => r.foldMs, 1)} ms; whole-form statistics with them pending: ${both((r) => r.pendingReadMs, 1)} ms (folded: ${wholeMs.toFixed(1)} ms)`);
  log(`load average after: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  await removeSubmissions(db, companyId, formId, form.content);
  await database.close();
}
