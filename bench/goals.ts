import { loadavg } from 'node:os';
import { createCompany } from '../src/features/companies/create-company.js';
import { findForm } from '../src/features/forms/find-form.js';
import { importForm } from '../src/features/forms/import-form.js';
import { addGoalRule } from '../src/features/goals/add-goal-rule.js';
import { reachGoals } from '../src/features/goals/reach-goals.js';
import { recordResponse } from '../src/features/responses/record-response.js';
import { systemClock } from '../src/lib/clock.js';
import { idGeneratorFor } from '../src/lib/ids.js';
import { benchDatabase, printTable } from './support.js';

/**
 * What the goals check adds to every response: recordResponse with the goals consumer (a form
 * with three armed rules far above its count, so every response probes and none fires) beside
 * recordResponse without any consumer, on two forms of the same shape, alternating rounds so both
 * see the same load; once one submission at a time, once CONCURRENCY at a time.
 */
const ROUNDS = 4;
const PER_ROUND = Number(process.env.BENCH_SUBMISSIONS ?? 250);
const CONCURRENCY = 16;
const FORM = { name: 'Bench goals', sections: [{ key: 'main', name: 'Main', questions: [{ key: 'nps', name: 'NPS', type: 'NPS' }] }] };

export async function run(): Promise<void> {
  const database = await benchDatabase('quorum_bench_goals');
  const { db } = database;
  const deps = { clock: systemClock, newId: idGeneratorFor(systemClock) };
  const company = await createCompany(db, deps, { name: 'Goals bench', slug: `bench-goals-${Date.now()}` });
  const form = async (slug: string) => {
    const { id } = await importForm(db, deps, { companyId: company.id, rawJson: { ...FORM, slug } });
    return (await findForm(db, deps, { companyId: company.id, id }))!;
  };
  const [bare, watched] = [await form('bare'), await form('watched')];
  for (const goal of [1_000_000, 2_000_000, 3_000_000]) await addGoalRule(db, deps, { companyId: company.id, form: watched.id, goal });
  const submit = (target: typeof bare, consumers: (typeof reachGoals)[]) =>
    db.transaction((tx) =>
      recordResponse(tx, { ...deps, eventConsumers: [], responseConsumers: consumers }, { form: target, answers: { [target.content.sections[0].questions[0].id]: 7 } }),
    );

  async function rate(work: () => Promise<unknown>, concurrency: number): Promise<number> {
    let left = PER_ROUND;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (left-- > 0) await work();
      }),
    );
    return (PER_ROUND * 1000) / (performance.now() - started);
  }
  console.log(`goals bench: ${ROUNDS} rounds of ${PER_ROUND} submissions each way, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  const rows = [];
  for (const concurrency of [1, CONCURRENCY]) {
    const without: number[] = [];
    const withGoals: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      without.push(await rate(() => submit(bare, []), concurrency));
      withGoals.push(await rate(() => submit(watched, [reachGoals]), concurrency));
    }
    const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
    rows.push(
      { recordResponse: `no consumer, ${concurrency} at a time`, 'submissions/s (median)': median(without), 'vs no consumer': 1 },
      { recordResponse: `goals consumer, ${concurrency} at a time`, 'submissions/s (median)': median(withGoals), 'vs no consumer': median(withGoals) / median(without) },
    );
  }
  await database.close();
  printTable(rows);
}
