import { Readable } from 'node:stream';
import { loadavg } from 'node:os';
import { createCompany } from '../src/features/companies/create-company.js';
import { importEntityFile } from '../src/features/entities/import-entities.js';
import { findForm } from '../src/features/forms/find-form.js';
import { importForm } from '../src/features/forms/import-form.js';
import { inviteRules } from '../src/features/invites/create-invite.js';
import { importInvites } from '../src/features/invites/import-invites.js';
import { prepareInvite } from '../src/features/invites/prepare-invite.js';
import { systemClock } from '../src/lib/clock.js';
import { idGeneratorFor } from '../src/lib/ids.js';
import { benchDatabase, printTable } from './support.js';

/**
 * The entity dims of a bulk invite import (dim.course, dim.unit given by code): resolved once per
 * chunk of 1,000 rows. In one run: the import of ROWS rows with both dims beside the same import
 * without dim columns (what the dims cost), and the dims resolved row by row (one lookup per row,
 * the way imports worked before) on the same rows, without the insert.
 */
const ROWS = Number(process.env.BENCH_ROWS ?? 20_000);
const COURSES = 200;
const UNITS = 50;
const FORM = {
  name: 'Bench invite dims',
  dims: [
    { key: 'course', kind: 'course' },
    { key: 'unit', kind: 'unit' },
  ],
  sections: [{ key: 'main', name: 'Main', questions: [{ key: 'nps', name: 'NPS', type: 'NPS' }] }],
};

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

export async function run(): Promise<void> {
  const database = await benchDatabase('quorum_bench_invite_dims');
  const deps = { clock: systemClock, newId: idGeneratorFor(systemClock) };
  const company = await createCompany(database.db, deps, { name: 'Invite dims bench', slug: `bench-invite-dims-${Date.now()}` });
  const entities = [
    'kind,code,name,parentCode',
    ...Array.from({ length: COURSES }, (_, i) => `course,C${i},Course ${i},`),
    'unit,ROOT,School,',
    ...Array.from({ length: UNITS }, (_, i) => `unit,U${i},Unit ${i},ROOT`),
  ].join('\n');
  await importEntityFile(database.db, deps, { companyId: company.id, text: entities, format: 'csv' });
  const form = async (slug: string) => {
    const { id } = await importForm(database.db, deps, { companyId: company.id, rawJson: { ...FORM, slug } });
    return (await findForm(database.db, database, { companyId: company.id, id }))!;
  };
  const [plain, withDims, perRow] = [await form('plain'), await form('with-dims'), await form('per-row')];
  const rows = Array.from({ length: ROWS }, (_, i) => ({ email: `p${i}@bench.test`, course: `C${i % COURSES}`, unit: `U${i % UNITS}` }));
  const csv = (withDimColumns: boolean) =>
    Readable.from([
      `email${withDimColumns ? ',dim.course,dim.unit' : ''}\n`,
      ...rows.map((r) => `${r.email}${withDimColumns ? `,${r.course},${r.unit}` : ''}\n`),
    ]);
  console.log(`invite import dims bench: ${ROWS.toLocaleString('en')} rows, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);

  const plainMs = await timed(() => importInvites(database.db, deps, { companyId: company.id, form: plain, source: csv(false) }));
  const dimsMs = await timed(() => importInvites(database.db, deps, { companyId: company.id, form: withDims, source: csv(true) }));
  const rules = await inviteRules(database.db, company.id, perRow, new Date());
  const perRowMs = await timed(async () => {
    for (const r of rows) await prepareInvite(database.db, rules, { email: r.email, dims: { course: r.course, unit: r.unit } });
  });
  await database.close();

  printTable([
    { run: 'import, no dim columns (baseline)', ms: plainMs, 'rows/s': (ROWS / plainMs) * 1000, 'vs baseline': 1 },
    { run: 'import, dim.course + dim.unit by code', ms: dimsMs, 'rows/s': (ROWS / dimsMs) * 1000, 'vs baseline': dimsMs / plainMs },
    { run: 'dims resolved row by row, no insert (before)', ms: perRowMs, 'rows/s': (ROWS / perRowMs) * 1000, 'vs baseline': perRowMs / plainMs },
  ]);
}
