import i18next from 'i18next';

/** An instant in the person's language and time zone, to the minute. */
export function formatWhen(iso: string): string {
  return new Intl.DateTimeFormat(i18next.language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}

/** A `datetime-local` field's value (the person's local time) as the instant the API takes; null when empty or unreadable. */
export function localToInstant(value: string): string | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}
