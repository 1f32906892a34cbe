import { loadavg } from 'node:os';
import { sql } from 'drizzle-orm';
import { MemoryRateLimiter } from '../src/platform/app/rate-limiter.js';
import { loadConfig } from '../src/platform/config.js';
import { createContext } from '../src/platform/context.js';
import { createCompany } from '../src/features/companies/create-company.js';
import { updateCompanySettings } from '../src/features/companies/company-settings.js';
import { importForm } from '../src/features/forms/import-form.js';
import { sendInvites } from '../src/features/invites/send-invites.js';
import { sendReminders } from '../src/features/reminders/send-reminders.js';
import { setReminderSchedule } from '../src/features/reminders/set-schedule.js';
import { ManualClock } from '../src/lib/clock.js';
import { uuidv7 } from '../src/lib/ids.js';
import { benchDatabase, printTable } from './support.js';

/**
 * The reminder sweep at volume: 100,000 invites of one form whose invitation left two days ago,
 * a schedule "1 day after, once". Per run, one sweep pass reminding all of them (the due
 * selection, one reminder send per batch of 10,000, the steps), beside its baseline in the same
 * run: one plain send call selecting the same 100,000 invites (what an operator's "send again to
 * everyone" costs). Between measurements the queued messages and steps are removed, so each
 * starts from the same state. Three runs; the table shows each and the medians.
 */

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const DATABASE = 'quorum_bench_reminders';
const FORM = { slug: 'bench-reminders', name: 'Bench reminders', sections: [{ key: 'main', name: 'Main', questions: [{ key: 'nps', name: 'NPS', type: 'NPS' }] }] };
// A Wednesday at noon UTC: a working day past the schedule's hour.
const NOW = new Date('2026-03-04T12:00:00Z');

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export async function run(): Promise<void> {
  const database = await benchDatabase(DATABASE);
  const config = { ...loadConfig(), logLevel: 'silent' as const };
  const clock = new ManualClock(NOW);
  const ctx = await createContext(config, { database, limiter: new MemoryRateLimiter(), clock });
  const company = await createCompany(ctx.db, ctx, { name: 'Reminders bench', slug: `bench-reminders-${Date.now()}` });
  const companyId = company.id;
  await updateCompanySettings(ctx.db, ctx, { companyId, patch: { monthlyQuota: 100_000_000 } });
  const { id: formId } = await importForm(ctx.db, ctx, { companyId, rawJson: FORM });
  const before = loadavg();

  // The invites and their invitation, sent two days ago, written set-wise.
  const sentAt = new Date(NOW.getTime() - 2 * 86_400_000);
  const batchId = uuidv7(sentAt.getTime());
  await ctx.db.execute(sql`INSERT INTO invite_batches (id, company_id, form_id, kind, channel, created_at) VALUES (${batchId}, ${companyId}, ${formId}, 'send', 'email', ${sentAt})`);
  await ctx.db.execute(sql`
    INSERT INTO invites (id, company_id, form_id, token, status, email, name, dims, channel, send_batch_id, status_changed_at, created_at)
    SELECT gen_random_uuid(), ${companyId}, ${formId}, md5(n::text || ${companyId}) || md5(${companyId} || n::text), 'sent', 'p' || n || '@bench.test', 'Person ' || n, '{}',
           'email', ${batchId}, ${sentAt}, ${sentAt}
      FROM generate_series(1, ${ROWS}) n`);
  await ctx.db.execute(sql`
    INSERT INTO invite_messages (id, company_id, invite_id, batch_id, channel, status, due_at, attempts, quota_period, created_at, completed_at)
    SELECT gen_random_uuid(), ${companyId}, i.id, ${batchId}, 'email', 'sent', ${sentAt}, 1, '2026-03', ${sentAt}, ${sentAt}
      FROM invites i WHERE i.company_id = ${companyId} AND i.form_id = ${formId}`);
  await ctx.db.execute(sql`ANALYZE invites; ANALYZE invite_messages`);
  await setReminderSchedule(ctx.db, ctx, { companyId, formId, channel: 'email', afterDays: 1, maxReminders: 1, localHour: 0, finalDaysBefore: null, template: null });

  const reset = async () => {
    await ctx.db.execute(sql`DELETE FROM reminder_steps WHERE company_id = ${companyId}`);
    await ctx.db.execute(sql`DELETE FROM invite_messages WHERE company_id = ${companyId} AND status = 'pending'`);
    await ctx.db.execute(sql`DELETE FROM invite_batches b WHERE company_id = ${companyId} AND id <> ${batchId}`);
    await ctx.db.execute(sql`UPDATE quota_usage SET reserved = 0 WHERE company_id = ${companyId}`);
  };
  console.log(`reminders bench: ${ROWS.toLocaleString('en')} invites, ${RUNS} runs, load average ${before.map((l) => l.toFixed(2)).join(' ')}`);
  const sweeps: number[] = [];
  const sends: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    let reminded = 0;
    sweeps.push(await timed(async () => (reminded = await sendReminders(ctx.db, ctx, { companyId }))));
    if (reminded !== ROWS) throw new Error(`reminded ${reminded} of ${ROWS}`);
    await reset();
    sends.push(await timed(() => sendInvites(ctx.db, ctx, { companyId, formId, channel: 'email' })));
    await reset();
    console.log(`run ${i + 1}: sweep ${sweeps[i].toFixed(0)} ms, plain send ${sends[i].toFixed(0)} ms`);
  }
  const after = loadavg();
  const cpu = process.cpuUsage();
  printTable([
    { step: `reminder sweep, one pass (${ROWS} reminded)`, value: median(sweeps).toFixed(0), unit: 'ms', note: `runs ${sweeps.map((v) => v.toFixed(0)).join(', ')}; ${(median(sweeps) / median(sends)).toFixed(2)}x the plain send` },
    { step: `baseline: one send call selecting all ${ROWS}`, value: median(sends).toFixed(0), unit: 'ms', note: `runs ${sends.map((v) => v.toFixed(0)).join(', ')}` },
  ]);
  console.log(`load average before ${before.map((l) => l.toFixed(2)).join(' ')}, after ${after.map((l) => l.toFixed(2)).join(' ')}; this process's CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s (most of the work is in Postgres)`);
  await ctx.close();
}
