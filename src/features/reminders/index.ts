/** The reminders feature's public face: what other features, the CLI and the worker may use (docs/CONTRIBUTING.md). */
export { clearReminderSchedule } from './clear-schedule.js';
export { REMINDER_CHANNELS, type ReminderChannel, type ReminderSchedule } from './schedule-input.js';
export { sendReminders } from './send-reminders.js';
export { setReminderSchedule } from './set-schedule.js';
export { showReminderSchedules, type ScheduleView } from './show-schedule.js';
export { seedDemoReminders } from './seed-demo-reminders.js';
