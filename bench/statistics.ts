import { findFormBySlug } from '../src/features/forms/find-form.js';
import { recordResponse } from '../src/features/responses/record-response.js';
import { responses } from '../src/db/schema.js';
import { getReport } from '../src/features/statistics/get-report.js';
import { getStatistics } from '../src/features/statistics/get-statistics.js';
import { rebuildRollupsOfForm } from '../src/features/statistics/rebuild-rollups.js';
import { systemClock } from '../src/lib/clock.js';
import { idGeneratorFor } from '../src/lib/ids.js';
import { ensureBenchData, RESPONSE_COUNT } from './responses-scan-seed.js';
import { benchDatabase, printTable } from './support.js';

/**
 * Statistics on 1,000,000 responses (the responses-scan data set, in its own database): the
 * whole-form figures and a 50-group report (dim.course) from the rollups, each beside the
 * brute-force SQL aggregate of the same cut (every answer value counted per question), and what
 * the rollups add to one recordResponse (submissions per second with and without them).
 */
const ROUNDS = 5;
const SUBMISSIONS = 300;

async function median(work: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const started = performance.now();
    await work();
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[Math.floor(ROUNDS / 2)];
}

export async function run(): Promise<void> {
  const database = await benchDatabase('quorum_bench_statistics');
  const { db, pool } = database;
  const log = (line: string) => console.log(line);
  const { companyId, formId } = await ensureBenchData(pool, log);
  const form = (await findFormBySlug(db, companyId, 'scan'))!;

  // Rollups seeded set-wise, a UTC day per read and insert, with the service deletions use.
  const { rows: rolled } = await pool.query(
    `SELECT coalesce(sum(n), 0)::int8 AS n FROM statistics_rollups WHERE form_id = $1 AND cut_key = '' AND question_id = '' AND item = 'responses'`,
    [formId],
  );
  if (Number(rolled[0].n) !== RESPONSE_COUNT) {
    const started = performance.now();
    log('Seeding rollups, a day at a time ...');
    await db.transaction((tx) => rebuildRollupsOfForm(tx, companyId, formId, form.content));
    await pool.query('VACUUM (ANALYZE) statistics_rollups');
    log(`Rollups seeded in ${((performance.now() - started) / 1000).toFixed(0)} s.`);
  }

  const deps = { scanCeiling: 200_000 };
  const query = { companyId, formId, dims: {} };
  const whole = await getStatistics(db, deps, query);
  const report = await getReport(db, deps, { ...query, groupBy: { kind: 'dim', key: 'course' } });
  log(`whole form: ${whole.responseCount} responses, truncated ${whole.truncated}; report: ${report.groups.length} groups, truncated ${report.truncated}`);

  const bruteWhole = `SELECT a.key, a.value, count(*) FROM responses r, jsonb_each(r.answers) a WHERE r.company_id = $1 AND r.form_id = $2 GROUP BY 1, 2`;
  const bruteReport = `SELECT r.dims->>'course', a.key, a.value, count(*) FROM responses r, jsonb_each(r.answers) a
    WHERE r.company_id = $1 AND r.form_id = $2 GROUP BY 1, 2, 3`;
  const wholeMs = await median(() => getStatistics(db, deps, query));
  const wholeBruteMs = await median(() => pool.query(bruteWhole, [companyId, formId]));
  const reportMs = await median(() => getReport(db, deps, { ...query, groupBy: { kind: 'dim', key: 'course' } }));
  const reportBruteMs = await median(() => pool.query(bruteReport, [companyId, formId]));

  // Submissions: one transaction each on the small form, with the rollups (recordResponse) and
  // without (the same row inserted alone).
  const other = (await findFormBySlug(db, companyId, 'other'))!;
  const deps2 = { clock: systemClock, newId: idGeneratorFor(systemClock) };
  const answers = { [other.content.sections[0].questions[4].id]: 9, [other.content.sections[0].questions[0].id]: other.content.sections[0].questions[0].options![1].id };
  const dims = { course: 'bench-course', year: '3', sessionDate: '2025-10-01' };
  const timeSubmissions = async (submit: () => Promise<unknown>) => {
    const started = performance.now();
    for (let i = 0; i < SUBMISSIONS; i++) await submit();
    return (SUBMISSIONS * 1000) / (performance.now() - started);
  };
  const withRollups = await timeSubmissions(() => db.transaction((tx) => recordResponse(tx, deps2, { form: other, answers, dims })));
  const withoutRollups = await timeSubmissions(() =>
    db.transaction((tx) =>
      tx.insert(responses).values({ id: deps2.newId(), companyId, formId: other.id, answers, dims, orgSource: 'none', completedAt: new Date(), createdAt: new Date() }),
    ),
  );
  await pool.query(`DELETE FROM responses WHERE form_id = $1 AND dims->>'course' = 'bench-course'`, [other.id]);

  printTable([
    { cut: 'whole form (1M)', 'rollups ms': wholeMs, 'brute-force SQL ms': wholeBruteMs, ratio: wholeBruteMs / wholeMs },
    { cut: 'report by course (50 groups)', 'rollups ms': reportMs, 'brute-force SQL ms': reportBruteMs, ratio: reportBruteMs / reportMs },
  ]);
  printTable([
    { recordResponse: 'with rollups', 'submissions/s': withRollups, 'vs without': withRollups / withoutRollups },
    { recordResponse: 'without (insert only)', 'submissions/s': withoutRollups, 'vs without': 1 },
  ]);
  await database.close();
}
