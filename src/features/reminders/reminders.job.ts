import { defineSweep } from '../../platform/jobs/define-sweep.js';
import { sendReminders } from './send-reminders.js';

/** Every quarter hour: what is due is decided by the schedules, the steps taken and the clock. */
export const sendRemindersSweep = defineSweep({
  name: 'reminders.send',
  cron: '*/15 * * * *',
  sweep: (ctx) => sendReminders(ctx.db, { clock: ctx.clock, newId: ctx.newId, log: (message) => ctx.logger.warn(message) }),
});
