import { loadavg } from 'node:os';
import { sql } from 'drizzle-orm';
import { createCompany } from '../src/features/companies/create-company.js';
import { importEntities } from '../src/features/entities/import-entities.js';
import { importForm } from '../src/features/forms/import-form.js';
import { getResponseRates } from '../src/features/rates/get-response-rates.js';
import { systemClock } from '../src/lib/clock.js';
import { idGeneratorFor } from '../src/lib/ids.js';
import { benchDatabase, benchDatabaseUrl, meterCpu, printTable } from './support.js';

/**
 * The whole response-rate breakdown (getResponseRates: overall and per class, class group, course,
 * teacher and unit subtree) of a form with 100,000 invites of 100,000 roster persons in 1,000
 * classes (a fifth of them in a second class), beside a baseline in the same run: the plain count
 * of the same invites per status, the least any rate figure must read. Seeded set-wise once and
 * reused (company slug bench-rates). Each read also in CPU milliseconds of this process and the
 * database's backends, which hold on a machine shared with other work.
 */
const CLASSES = 1_000;
const PEOPLE = 100_000;
const RUNS = 3;
const SLUG = 'bench-rates';

type Db = Awaited<ReturnType<typeof benchDatabase>>['db'];
const deps = { clock: systemClock, newId: idGeneratorFor(systemClock) };

async function seed(db: Db): Promise<{ companyId: string; formId: string }> {
  const [found] = (await db.execute<{ companyId: string; formId: string }>(sql`
    SELECT c.id AS "companyId", f.id AS "formId" FROM companies c JOIN forms f ON f.company_id = c.id WHERE c.slug = ${SLUG}`)).rows;
  if (found) return found;
  const started = performance.now();
  const company = await createCompany(db, deps, { name: 'Rates bench', slug: SLUG });
  const companyId = company.id;
  const units = ['north', 'south'].flatMap((root) => [
    { kind: 'unit' as const, code: root, name: root },
    ...Array.from({ length: 5 }, (_, i) => ({ kind: 'unit' as const, code: `${root}-${i}`, name: `${root} ${i}`, parentCode: root })),
  ]);
  const courses = Array.from({ length: 100 }, (_, i) => ({ kind: 'course' as const, code: `K${i}`, name: `Course ${i}` }));
  const teachers = Array.from({ length: 300 }, (_, i) => ({ kind: 'teacher' as const, code: `T${i}`, name: `Teacher ${i}` }));
  await importEntities(db, deps, { companyId, incoming: [...units, ...courses, ...teachers] });
  const { id: formId } = await importForm(db, deps, {
    companyId,
    rawJson: { slug: 'rates', name: 'Rates', sections: [{ key: 'main', name: 'Main', questions: [{ key: 'q', name: 'Q', type: 'STAR' }] }] },
  });
  await db.execute(sql`
    WITH g AS (INSERT INTO class_groups (id, company_id, code, name, created_at, updated_at)
               VALUES (gen_random_uuid(), ${companyId}, 'Y', 'Year', now(), now()) RETURNING id),
    leaf AS (SELECT array_agg(id ORDER BY code) AS ids FROM entities WHERE company_id = ${companyId} AND kind = 'unit' AND parent_id IS NOT NULL),
    course AS (SELECT array_agg(id ORDER BY code) AS ids FROM entities WHERE company_id = ${companyId} AND kind = 'course'),
    teacher AS (SELECT array_agg(id ORDER BY code) AS ids FROM entities WHERE company_id = ${companyId} AND kind = 'teacher')
    INSERT INTO classes (id, company_id, code, name, class_group_id, course_item_id, org_unit_id, teacher_ids, created_at, updated_at)
    SELECT gen_random_uuid(), ${companyId}, 'C' || n, 'Class ' || n, g.id, course.ids[1 + n % 100], leaf.ids[1 + n % 10],
           ARRAY[teacher.ids[1 + n % 300], teacher.ids[1 + (n * 7) % 300]], now(), now()
      FROM generate_series(0, ${CLASSES - 1}) AS n, g, leaf, course, teacher`);
  await db.execute(sql`
    INSERT INTO people (id, company_id, external_id, name, email, created_at, updated_at)
    SELECT gen_random_uuid(), ${companyId}, 'P' || n, 'Person ' || n, 'p' || n || '@bench.test', now(), now()
      FROM generate_series(0, ${PEOPLE - 1}) AS n`);
  // Each person in class n % 1000; every fifth also in the next class; one in fifty of those dropped.
  await db.execute(sql`
    INSERT INTO enrollments (id, company_id, person_id, class_id, status, status_changed_at, created_at)
    SELECT gen_random_uuid(), ${companyId}, p.id, c.id, CASE WHEN s.k = 1 AND s.n % 50 = 0 THEN 'dropped' ELSE 'enrolled' END, now(), now()
      FROM (SELECT n, k FROM generate_series(0, ${PEOPLE - 1}) AS n, generate_series(0, 1) AS k WHERE k = 0 OR n % 5 = 0) AS s
      JOIN people p ON p.company_id = ${companyId} AND p.external_id = 'P' || s.n
      JOIN classes c ON c.company_id = ${companyId} AND c.code = 'C' || ((s.n + s.k) % ${CLASSES})`);
  // Invites spread over the stages (and a few failed or revoked), by n / 1000 so every class holds each stage.
  await db.execute(sql`
    INSERT INTO invites (id, company_id, form_id, token, status, email, external_id, status_changed_at, created_at, opened_at, started_at, responded_at)
    SELECT gen_random_uuid(), ${companyId}, ${formId}, md5(n || 'a') || md5(n || 'b'),
           (ARRAY['created', 'queued', 'sent', 'delivered', 'opened', 'started', 'responded', 'responded', 'failed', 'revoked'])[1 + s],
           'p' || n || '@bench.test', 'P' || n, now(), now(),
           CASE WHEN s IN (4, 5, 6, 7) THEN now() END, CASE WHEN s IN (5, 6, 7) THEN now() END, CASE WHEN s IN (6, 7) THEN now() END
      FROM generate_series(0, ${PEOPLE - 1}) AS n, LATERAL (SELECT (n / 1000) % 10 AS s) AS stage`);
  await db.execute(sql`ANALYZE`);
  console.log(`seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return { companyId, formId };
}

type Metered = Parameters<typeof meterCpu>[0];

async function timed(metered: Metered, work: () => Promise<unknown>): Promise<{ ms: number; cpuMs: number }> {
  const stop = await meterCpu(metered);
  const started = performance.now();
  await work();
  const ms = performance.now() - started;
  const used = await stop();
  return { ms, cpuMs: (used.processCpuS + used.databaseCpuS) * 1000 };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const row = (read: string, runs: { ms: number; cpuMs: number }[], base: { ms: number; cpuMs: number }[]) => {
  const [ms, cpuMs] = [median(runs.map((r) => r.ms)), median(runs.map((r) => r.cpuMs))];
  return {
    read,
    'ms (median of 3)': ms,
    runs: runs.map((r) => r.ms.toFixed(0)).join(' '),
    'vs baseline': ms / median(base.map((r) => r.ms)),
    'CPU ms (median)': cpuMs,
    'CPU vs baseline': cpuMs / median(base.map((r) => r.cpuMs)),
  };
};

export async function run(): Promise<void> {
  const database = await benchDatabase('quorum_bench_rates');
  const { db } = database;
  const { companyId, formId } = await seed(db);
  const baseline = () =>
    db.execute(sql`SELECT status, count(*) FROM invites WHERE company_id = ${companyId} AND form_id = ${formId} GROUP BY status`);
  const breakdown = () => getResponseRates(db, deps, { companyId, formId });
  const sample = await breakdown();
  console.log(
    `rates bench: ${sample.overall.invited} invited, ${sample.groups.class.length} classes, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`,
  );
  await baseline(); // warm both
  const metered = { pool: database.pool, name: benchDatabaseUrl('quorum_bench_rates').pathname.slice(1) };
  const base: { ms: number; cpuMs: number }[] = [];
  const full: { ms: number; cpuMs: number }[] = [];
  for (let i = 0; i < RUNS; i++) {
    base.push(await timed(metered, baseline));
    full.push(await timed(metered, breakdown));
  }
  console.log(`load average at the end ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  printTable([
    row('baseline: invites per status', base, base),
    row('whole breakdown (getResponseRates)', full, base),
  ]);
  await database.close();
}
