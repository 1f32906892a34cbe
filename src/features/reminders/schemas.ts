import { Type } from '@sinclair/typebox';
import { Nullable, OneOf } from '../../lib/schema-pieces.js';
import { REMINDER_CHANNELS, SCHEDULE_BOUNDS } from './schedule-input.js';

const bounded = (key: keyof typeof SCHEDULE_BOUNDS, description: string) =>
  Type.Integer({ minimum: SCHEDULE_BOUNDS[key][0], maximum: SCHEDULE_BOUNDS[key][1], description });
const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601 in UTC with milliseconds' });

/** A form's reminder schedule on one channel, with its next run (extension; docs/contract.md). */
export const ReminderSchedule = Type.Object(
  {
    channel: OneOf(REMINDER_CHANNELS),
    afterDays: bounded('afterDays', 'The first reminder this many days after the first send, each next one this many days later'),
    maxReminders: bounded('maxReminders', 'At most this many reminders (the final one aside)'),
    localHour: bounded('localHour', "Reminders leave from this hour of a working day in the company's time zone"),
    finalDaysBefore: Nullable(bounded('finalDaysBefore', "A final reminder this many days before the invite's expiresAt; null: none")),
    timeZone: Type.String({ description: "The company's IANA time zone, in which localHour is read" }),
    pending: Type.Integer({ minimum: 0, description: 'Invites still to remind: sent, not responded, revoked or expired, reminders left' }),
    nextRunAt: Nullable(Timestamp),
    updatedAt: Timestamp,
  },
  { $id: 'ReminderSchedule', title: 'ReminderSchedule', additionalProperties: false },
);

export const reminderSchemas = [ReminderSchedule];
