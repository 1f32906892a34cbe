import { sql } from 'drizzle-orm';
import type { DemoSeeder } from '../../demo/index.js';
import { findFormBySlug } from '../forms/index.js';
import { DEMO_INVITE_FORM } from '../invites/index.js';
import { setReminderSchedule } from './set-schedule.js';

/**
 * The demo's reminder schedule on the library form: two days after the first send, at most twice,
 * from midnight local time, and a final one a day before an expiry. The invitations the messaging
 * seeder delivered are dated three days back (the campaign started then), so the worker's sweep,
 * or `quorum reminders run`, sends their first reminder on the first working day: the README's
 * tour shows it arriving in the development mailbox.
 */
export const seedDemoReminders: DemoSeeder = async (ctx, company) => {
  const form = await findFormBySlug(ctx.db, ctx, { companyId: company.id, slug: DEMO_INVITE_FORM });
  if (!form) return;
  await setReminderSchedule(ctx.db, ctx, { companyId: company.id, formId: form.id, channel: 'email', afterDays: 2, maxReminders: 2, localHour: 0, finalDaysBefore: 1, template: null });
  await ctx.db.execute(sql`UPDATE invite_messages SET completed_at = completed_at - interval '3 days', created_at = created_at - interval '3 days'
    WHERE company_id = ${company.id} AND status = 'sent' AND purpose = 'invitation'`);
};
