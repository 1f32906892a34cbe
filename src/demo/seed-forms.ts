import { readFileSync } from 'node:fs';
import { importEntityFile } from '../features/entities/index.js';
import { importForm } from '../features/forms/index.js';
import type { DemoSeeder } from './seed-demo.js';

/** Demo definitions ship in dist beside this file (scripts/copy-assets.mjs copies data/). */
const readData = (name: string) => readFileSync(new URL(`./data/${name}`, import.meta.url), 'utf8');

export const DEMO_FORM_FILES = ['term-evaluation.json', 'library-services.json', 'orientation-week.json'];

/**
 * A unit tree (school, campuses, departments), courses and teachers, then forms that cover every
 * question type and dim kind. Entities first: dims and the demo responses refer to them.
 */
export const seedFormsAndEntities: DemoSeeder = async (ctx, company) => {
  await importEntityFile(ctx.db, ctx, { companyId: company.id, text: readData('entities.csv'), format: 'csv' });
  for (const file of DEMO_FORM_FILES) await importForm(ctx.db, ctx, { companyId: company.id, rawJson: JSON.parse(readData(file)) });
};
