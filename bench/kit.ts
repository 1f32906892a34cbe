import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { buildApp } from '../src/platform/app/build-app.js';
import { MemoryRateLimiter } from '../src/platform/app/rate-limiter.js';
import { loadConfig } from '../src/platform/config.js';
import { createContext, type Context } from '../src/platform/context.js';
import { createCompany } from '../src/features/companies/create-company.js';
import { importForm } from '../src/features/forms/import-form.js';
import { createKey } from '../src/features/keys/create-key.js';
import { importRoster } from '../src/features/rosters/import-roster.js';
import { readOneRosterFolder } from '../src/features/rosters/read-oneroster-folder.js';
import { benchDatabase, benchDatabaseUrl, printTable } from './support.js';

/**
 * The integrator's kit:
 * 1. POST /forms/{id}/invites at 50 connections with an Idempotency-Key (a new one per request:
 *    the claim and the stored answer are the whole cost) beside the same POST without one,
 *    alternating, three rounds in one run: the ratio with/without (aim >= 0.8);
 * 2. a OneRoster 1.2 CSV package of 10,000 student enrollments (10,000 students, 40 classes, their
 *    teachers, one school, one term) read and imported into a new company, beside the same payload
 *    imported as JSON into another, three times (aim < 2 s, like the JSON import).
 */
const CONNECTIONS = 50;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = 3;
const ENROLLMENTS = 10_000;
const CLASSES = 40;
const DATABASE = 'quorum_bench_kit';
const FORM = { slug: 'bench-kit', name: 'Bench kit', sections: [{ key: 'main', name: 'Main', questions: [{ key: 'nps', name: 'NPS', type: 'NPS' }] }] };

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const load1 = () => loadavg()[0].toFixed(1);

async function creates(origin: string, formId: string, token: string, withKey: boolean) {
  let n = 0;
  const result = await autocannon({
    url: `${origin}/v1/forms/${formId}/invites`,
    connections: CONNECTIONS,
    duration: SECONDS,
    requests: [
      {
        method: 'POST',
        setupRequest: (req) => ({
          ...req,
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...(withKey ? { 'idempotency-key': randomUUID() } : {}) },
          body: JSON.stringify({ name: 'New', email: `${withKey ? 'k' : 'n'}${n++}-${Date.now()}@bench.test` }),
        }),
      },
    ],
  });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx };
}

async function idempotencyCost(ctx: Context) {
  const company = await createCompany(ctx.db, ctx, { name: 'Kit bench', slug: `bench-kit-${Date.now()}` });
  const { id: formId } = await importForm(ctx.db, ctx, { companyId: company.id, rawJson: FORM });
  const { token } = await createKey(ctx.db, ctx, { companyId: company.id, name: 'bench', scopes: ['invites:write'], rateLimitPerMin: 1_000_000 });
  const app = await buildApp(ctx);
  const origin = await app.listen({ port: 0, host: '127.0.0.1' });
  const rows: Record<string, string | number>[] = [];
  const ratios: number[] = [];
  for (let round = 1; round <= ROUNDS; round += 1) {
    const loadAt = load1();
    const without = await creates(origin, formId, token, false);
    const withKey = await creates(origin, formId, token, true);
    ratios.push(withKey.rps / without.rps);
    rows.push({ run: `${round}: without key`, 'req/s': Math.round(without.rps), 'p50 ms': without.p50, 'p99 ms': without.p99, 'non-2xx': without.non2xx, ratio: 1, 'load at start': loadAt });
    rows.push({ run: `${round}: with key`, 'req/s': Math.round(withKey.rps), 'p50 ms': withKey.p50, 'p99 ms': withKey.p99, 'non-2xx': withKey.non2xx, ratio: withKey.rps / without.rps, 'load at start': '' });
  }
  rows.push({ run: '**median ratio**', 'req/s': '', 'p50 ms': '', 'p99 ms': '', 'non-2xx': '', ratio: median(ratios), 'load at start': '' });
  await app.close();
  printTable(rows);
}

/** A bulk package as a school's system writes it (CRLF, the 1.2 columns). */
function oneRosterPackage(): string {
  const dir = mkdtempSync(join(tmpdir(), 'quorum-bench-oneroster-'));
  mkdirSync(dir, { recursive: true });
  const write = (name: string, lines: string[]) => writeFileSync(join(dir, name), `${lines.join('\r\n')}\r\n`);
  const perClass = ENROLLMENTS / CLASSES;
  write('manifest.csv', ['propertyName,value', 'manifest.version,1.0', 'oneroster.version,1.2', ...['orgs', 'academicSessions', 'courses', 'classes', 'users', 'roles', 'enrollments'].map((f) => `file.${f},bulk`)]);
  write('orgs.csv', ['sourcedId,status,dateLastModified,name,type,identifier,parentSourcedId', 'sch,,,Bench School,school,BS,']);
  write('academicSessions.csv', ['sourcedId,status,dateLastModified,title,type,startDate,endDate,parentSourcedId,schoolYear', 'term,,,Term,term,2026-02-01,2026-12-15,,2026']);
  write('courses.csv', ['sourcedId,status,dateLastModified,schoolYearSourcedId,title,courseCode,grades,orgSourcedId,subjects,subjectCodes', 'crs,,,,Course,CRS,,sch,,']);
  write('classes.csv', [
    'sourcedId,status,dateLastModified,title,grades,courseSourcedId,classCode,classType,location,schoolSourcedId,termSourcedIds,subjects,subjectCodes,periods',
    ...Array.from({ length: CLASSES }, (_, c) => `cls-${c},,,Class ${c},,crs,C${c},scheduled,,sch,term,,,`),
  ]);
  write('users.csv', [
    'sourcedId,status,dateLastModified,enabledUser,username,userIds,givenName,familyName,middleName,identifier,email,sms,phone,agentSourcedIds,grades,password,userMasterIdentifier,resourceSourcedIds,preferredGivenName,preferredMiddleName,preferredFamilyName,primaryOrgSourcedId,pronouns',
    ...Array.from({ length: ENROLLMENTS }, (_, i) => `stu-${i},,,true,s${i},,Student,${i},,,s${i}@bench.test,,,,,,,,,,,sch,`),
    ...Array.from({ length: CLASSES }, (_, c) => `tch-${c},,,true,t${c},,Teacher,${c},,,,,,,,,,,,,,sch,`),
  ]);
  write('roles.csv', [
    'sourcedId,status,dateLastModified,userSourcedId,roleType,role,beginDate,endDate,orgSourcedId,userProfileSourcedId',
    ...Array.from({ length: ENROLLMENTS }, (_, i) => `rs-${i},,,stu-${i},primary,student,,,sch,`),
    ...Array.from({ length: CLASSES }, (_, c) => `rt-${c},,,tch-${c},primary,teacher,,,sch,`),
  ]);
  write('enrollments.csv', [
    'sourcedId,status,dateLastModified,classSourcedId,schoolSourcedId,userSourcedId,role,primary,beginDate,endDate',
    ...Array.from({ length: ENROLLMENTS }, (_, i) => `es-${i},,,cls-${Math.floor(i / perClass)},sch,stu-${i},student,false,,`),
    ...Array.from({ length: CLASSES }, (_, c) => `et-${c},,,cls-${c},sch,tch-${c},teacher,true,,`),
  ]);
  return dir;
}

/** Each run: the package read and imported into a new company, beside its payload (already read) imported into another: the JSON import's cost. */
async function oneRosterImport(ctx: Context) {
  const dir = oneRosterPackage();
  const rows: Record<string, string | number>[] = [];
  const totals: number[] = [];
  const baselines: number[] = [];
  const company = (label: string, run: number) => createCompany(ctx.db, ctx, { name: 'OneRoster bench', slug: `bench-oneroster-${label}-${Date.now()}-${run}` });
  for (let run = 1; run <= ROUNDS; run += 1) {
    const loadAt = load1();
    const target = await company('package', run);
    const started = performance.now();
    const read = readOneRosterFolder(dir, '2026-03-02');
    const readMs = performance.now() - started;
    const outcome = await importRoster(ctx.db, ctx, { companyId: target.id, mode: 'upsert', ...read.payload });
    const total = performance.now() - started;
    if (outcome.result.created.enrollments !== ENROLLMENTS || outcome.result.errors.length > 0) throw new Error(`imported ${outcome.result.created.enrollments}, ${outcome.result.errors.length} errors`);
    const json = await company('json', run);
    const jsonStarted = performance.now();
    await importRoster(ctx.db, ctx, { companyId: json.id, mode: 'upsert', ...read.payload });
    const baseline = performance.now() - jsonStarted;
    totals.push(total);
    baselines.push(baseline);
    rows.push({ run: `${run}: first import`, 'read ms': Math.round(readMs), 'package total ms': Math.round(total), 'same payload as JSON ms': Math.round(baseline), ratio: total / baseline, 'load at start': loadAt });
  }
  rows.push({ run: '**median**', 'read ms': '', 'package total ms': Math.round(median(totals)), 'same payload as JSON ms': Math.round(median(baselines)), ratio: median(totals) / median(baselines), 'load at start': '' });
  printTable(rows);
}

export async function run(): Promise<void> {
  const database = await benchDatabase(DATABASE);
  const config = { ...loadConfig({ QUORUM_DATA_DIR: mkdtempSync(join(tmpdir(), 'quorum-bench-kit-')), SECRET_KEY: 'x'.repeat(32), LOG_LEVEL: 'silent' }), databaseUrl: benchDatabaseUrl(DATABASE).toString() };
  const ctx = await createContext(config, { database, limiter: new MemoryRateLimiter() });
  console.log(`start ${new Date().toISOString()}, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  // BENCH_PART=idempotency or oneroster runs one half.
  if (process.env.BENCH_PART !== 'oneroster') await idempotencyCost(ctx);
  if (process.env.BENCH_PART !== 'idempotency') await oneRosterImport(ctx);
  await ctx.close();
  await database.close();
}
