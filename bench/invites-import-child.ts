/**
 * The importing process of bench/invites.ts: runs `importInvites` on a CSV file, as
 * `quorum invite import` does, and reports its time and its own peak memory (maxRSS), beside the
 * RSS it had before the import began. Argv: databaseUrl companyId formId file.
 */
import { createReadStream } from 'node:fs';
import { openPool } from '../src/platform/db/database.js';
import { findForm } from '../src/features/forms/find-form.js';
import { importInvites } from '../src/features/invites/import-invites.js';
import { systemClock } from '../src/lib/clock.js';
import { idGeneratorFor } from '../src/lib/ids.js';

const [databaseUrl, companyId, formId, file] = process.argv.slice(2);
const database = openPool(databaseUrl, 4);
const form = await findForm(database.db, database, { companyId, id: formId });
const rssBeforeMb = process.memoryUsage().rss / 2 ** 20;
const started = performance.now();
const summary = await importInvites(database.db, { clock: systemClock, newId: idGeneratorFor(systemClock) }, { companyId, form, source: createReadStream(file) });
const ms = performance.now() - started;
await database.close();
// maxRSS is in kilobytes.
process.stdout.write(JSON.stringify({ ms, created: summary.created, invalid: summary.invalid, batchId: summary.batchId, rssBeforeMb, peakRssMb: process.resourceUsage().maxRSS / 1024 }));
