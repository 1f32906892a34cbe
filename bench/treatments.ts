import { createCompany, findCompanyBySlug } from '../src/features/companies/create-company.js';
import { findFormBySlug } from '../src/features/forms/find-form.js';
import { importForm } from '../src/features/forms/import-form.js';
import { features } from '../src/features/index.js';
import { recordResponse } from '../src/features/responses/record-response.js';
import { addFlow } from '../src/features/treatments/flows.js';
import { openCasesConsumer } from '../src/features/treatments/open-case.js';
import { sweepOverdue } from '../src/features/treatments/sweep-overdue.js';
import { systemClock } from '../src/lib/clock.js';
import { idGeneratorFor } from '../src/lib/ids.js';
import { benchDatabase, benchDatabaseUrl, meterCpu, printTable } from './support.js';

/**
 * Treatments: the overdue sweep over 100,000 open cases whose deadline passed (each marked,
 * logged and emitted as treatment.overdue through the real event consumers), beside the bare
 * UPDATE that marks the same rows; and what a flow adds to one recordResponse (submissions per
 * second on a form without a flow, with a flow its answers miss, and with one that opens a case).
 * Each also per CPU-second of this process and the database's backends together, the figure that
 * holds on a machine shared with other work.
 */
const CASES = 100_000;
const SUBMISSIONS = 300;

const formFile = (slug: string) => ({
  slug,
  name: `Bench ${slug}`,
  sections: [{ key: 'main', name: 'Main', questions: [{ key: 'rating', name: 'Rate', type: 'STAR', mandatory: true }, { key: 'comment', name: 'Comment', type: 'TEXT' }] }],
});
const flow = {
  key: 'low',
  name: 'Low rating',
  when: { question: 'rating', lte: 2 },
  steps: [{ name: 'Call', responsible: 'coordinator', dueInWorkingDays: 2 }, { name: 'Report', responsible: 'coordinator', dueInWorkingDays: 3 }],
};

export async function run(): Promise<void> {
  const { db, pool } = await benchDatabase('quorum_bench_treatments');
  const metered = { pool, name: benchDatabaseUrl('quorum_bench_treatments').pathname.slice(1) };
  const cpuS = (used: { processCpuS: number; databaseCpuS: number }) => used.processCpuS + used.databaseCpuS;
  const deps = { clock: systemClock, newId: idGeneratorFor(systemClock), eventConsumers: features.flatMap((f) => f.eventConsumers ?? []) };
  const company = (await findCompanyBySlug(db, deps, { slug: 'bench' })) ?? (await createCompany(db, deps, { name: 'Bench', slug: 'bench' }));
  for (const slug of ['plain', 'flowed']) {
    if (!(await findFormBySlug(db, deps, { companyId: company.id, slug }))) await importForm(db, deps, { companyId: company.id, rawJson: formFile(slug) });
  }
  const plain = (await findFormBySlug(db, deps, { companyId: company.id, slug: 'plain' }))!;
  const flowed = (await findFormBySlug(db, deps, { companyId: company.id, slug: 'flowed' }))!;
  await addFlow(db, deps, { companyId: company.id, formIdOrSlug: 'flowed', file: flow });

  // 100,000 open cases, all past their deadline and not yet notified (seeded set-wise, fresh each run).
  await pool.query('DELETE FROM events WHERE company_id = $1', [company.id]);
  await pool.query('DELETE FROM treatments WHERE company_id = $1', [company.id]);
  await pool.query('DELETE FROM treatment_counters WHERE company_id = $1', [company.id]);
  const seed = `INSERT INTO treatments (id, company_id, number, form_id, flow_key, steps, status, step_index, step_started_at, step_due_at, opened_at)
    SELECT gen_random_uuid(), $1, n, $2, 'low', $3::jsonb, 'open', 0, now() - interval '10 days', now() - interval '1 day' - n * interval '1 second', now() - interval '10 days'
    FROM generate_series(1, ${CASES}) AS n`;
  await pool.query(seed, [company.id, flowed.id, JSON.stringify(flow.steps)]);
  await pool.query(`INSERT INTO treatment_counters VALUES ($1, ${CASES})`, [company.id]);
  // The deleted events and history of earlier runs vacuumed too, so that every run starts alike.
  await pool.query('VACUUM (ANALYZE) treatments, treatment_history, events');

  let stop = await meterCpu(metered);
  let started = performance.now();
  const swept = await sweepOverdue(db, deps);
  const sweepMs = performance.now() - started;
  const sweepCpuS = cpuS(await stop());
  const { rows: emitted } = await pool.query(`SELECT count(*)::int AS n FROM events WHERE company_id = $1 AND type = 'treatment.overdue'`, [company.id]);

  await pool.query('UPDATE treatments SET overdue_notified_at = NULL WHERE company_id = $1', [company.id]);
  await pool.query('VACUUM (ANALYZE) treatments');
  stop = await meterCpu(metered);
  started = performance.now();
  await pool.query(`UPDATE treatments SET overdue_notified_at = now() WHERE status = 'open' AND overdue_notified_at IS NULL AND step_due_at < now()`);
  const bareMs = performance.now() - started;
  const bareCpuS = cpuS(await stop());

  // One recordResponse per transaction, the treatments consumer listed as in the service.
  const submitDeps = { ...deps, responseConsumers: [openCasesConsumer] };
  const rate = async (form: typeof plain, rating: number, count = SUBMISSIONS) => {
    const answers = { [form.content.sections[0].questions[0].id]: rating };
    const meter = await meterCpu(metered);
    const begin = performance.now();
    for (let i = 0; i < count; i++) await db.transaction((tx) => recordResponse(tx, submitDeps, { form, answers }));
    const perSecond = (count * 1000) / (performance.now() - begin);
    return { perSecond, perCpuS: count / cpuS(await meter()) };
  };
  await rate(plain, 1, 50); // warm-up: the first submissions pay for JIT and connections
  const noFlow = await rate(plain, 1);
  const missed = await rate(flowed, 5);
  const opened = await rate(flowed, 1);

  const perCpu = (n: number, s: number) => Math.round(n / s);
  printTable([
    { measure: `overdue sweep, ${CASES} open cases`, value: sweepMs / 1000, unit: 's', 'per CPU-s': perCpu(CASES, sweepCpuS), note: `${swept} swept, ${emitted[0].n} events; ${sweepCpuS.toFixed(2)} CPU-s` },
    { measure: 'bare UPDATE of the same rows (baseline)', value: bareMs / 1000, unit: 's', 'per CPU-s': perCpu(CASES, bareCpuS), note: `sweep / bare = ${(sweepMs / bareMs).toFixed(1)} wall, ${(sweepCpuS / bareCpuS).toFixed(1)} CPU` },
    { measure: 'recordResponse, form without a flow', value: noFlow.perSecond, unit: 'resp/s', 'per CPU-s': Math.round(noFlow.perCpuS), note: `${(1000 / noFlow.perSecond).toFixed(2)} ms each` },
    { measure: 'recordResponse, flow not satisfied', value: missed.perSecond, unit: 'resp/s', 'per CPU-s': Math.round(missed.perCpuS), note: `${(1000 / missed.perSecond).toFixed(2)} ms each` },
    { measure: 'recordResponse, flow opens a case', value: opened.perSecond, unit: 'resp/s', 'per CPU-s': Math.round(opened.perCpuS), note: `+${(1000 / opened.perSecond - 1000 / noFlow.perSecond).toFixed(2)} ms per case` },
  ]);
  await pool.end();
}
