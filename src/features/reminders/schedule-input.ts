import { validationError, type FieldError } from '../../lib/errors.js';

export const REMINDER_CHANNELS = ['email', 'whatsapp'] as const;
export type ReminderChannel = (typeof REMINDER_CHANNELS)[number];

/** A form's reminder schedule on one channel, as set and shown. */
export interface ReminderSchedule {
  formId: string;
  channel: ReminderChannel;
  /** The first reminder N days after the first send, the next N days after that, and so on. */
  afterDays: number;
  /** At most K regular reminders (0: only the final one). */
  maxReminders: number;
  /** The local hour (company time zone) from which a working day's reminders go out. */
  localHour: number;
  /** The final reminder D days before the invite's expiresAt; null: none. */
  finalDaysBefore: number | null;
  /** The cloud-API WhatsApp template of the reminders; null for e-mail and the gateway. */
  template: { name: string; language: string; variables?: Record<string, string> } | null;
}

export type ScheduleSettings = Omit<ReminderSchedule, 'formId' | 'channel'>;

/** The bounds of each number, the same as the migration's checks. */
export const SCHEDULE_BOUNDS = {
  afterDays: [1, 90],
  maxReminders: [0, 10],
  localHour: [0, 23],
  finalDaysBefore: [1, 30],
} as const satisfies Record<string, readonly [number, number]>;

/** Refuses numbers out of bounds, and a schedule that would never remind (no regular and no final reminder). */
export function checkSchedule(input: ScheduleSettings & { channel: string }): void {
  const errors: FieldError[] = [];
  if (!(REMINDER_CHANNELS as readonly string[]).includes(input.channel)) errors.push({ path: 'channel', code: 'invalid_value', message: `must be one of ${REMINDER_CHANNELS.join(', ')}` });
  for (const [key, [min, max]] of Object.entries(SCHEDULE_BOUNDS)) {
    const value = input[key as keyof typeof SCHEDULE_BOUNDS];
    if (value === null && key === 'finalDaysBefore') continue;
    const message = `must be a whole number from ${min} to ${max}`;
    if (!Number.isInteger(value)) errors.push({ path: key, code: 'invalid_type', message });
    else if (value! < min) errors.push({ path: key, code: 'too_small', message });
    else if (value! > max) errors.push({ path: key, code: 'too_large', message });
  }
  if (errors.length === 0 && input.maxReminders === 0 && input.finalDaysBefore === null) {
    errors.push({ path: 'maxReminders', code: 'invalid_value', message: 'a schedule needs at least one reminder or a final one (finalDaysBefore)' });
  }
  if (errors.length > 0) throw validationError(errors);
}
