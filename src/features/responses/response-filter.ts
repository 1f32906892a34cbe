import { sql, type SQL } from 'drizzle-orm';
import { parseDay } from '../../lib/date-time.js';
import { validationError } from '../../lib/errors.js';

/** A form's responses, narrowed by period and dims: what the scan, its total and the statistics share. */
export interface ResponseFilter {
  companyId: string;
  formId: string;
  /** YYYY-MM-DD, UTC, inclusive. */
  from?: string;
  to?: string;
  /** dim key → value, compared as strings with the stored canonical values, all ANDed. */
  dims: Record<string, string>;
}

/** The filters (and the form) as a WHERE clause on alias r; shared by the page, its total and statistics scans. */
export function filterSql(input: ResponseFilter): SQL {
  const conditions = [sql`r.company_id = ${input.companyId}`, sql`r.form_id = ${input.formId}`, ...periodSql(input, sql`r.created_at`)];
  if (Object.keys(input.dims).length > 0) {
    // The expression of responses_form_dims_idx (migration 0110).
    conditions.push(sql`response_form_dims(r.form_id, r.dims) @> ${JSON.stringify({ [input.formId]: input.dims })}::jsonb`);
  }
  return sql.join(conditions, sql` AND `);
}

/** Whole UTC days, inclusive at both ends: [from 00:00, to + 1 day 00:00). */
export function periodSql(input: Pick<ResponseFilter, 'from' | 'to'>, createdAt: SQL): SQL[] {
  return [
    ...(input.from ? [sql`${createdAt} >= (${input.from}::date::timestamp AT TIME ZONE 'UTC')`] : []),
    ...(input.to ? [sql`${createdAt} < ((${input.to}::date + 1)::timestamp AT TIME ZONE 'UTC')`] : []),
  ];
}

/**
 * The last day a period filter may name: a period ends where the day after `to` starts, and that
 * day must be one the contract can write (YYYY-MM-DD, so 9999-12-31 at most).
 */
const LAST_PERIOD_DAY = '9999-12-30';

/** from and to as days of a period (src/lib/date-time.ts), from not after to; else VALIDATION_ERROR. */
export function checkPeriod(input: Pick<ResponseFilter, 'from' | 'to'>): void {
  const outOfRange = (['from', 'to'] as const).filter((bound) => {
    const day = input[bound];
    return day !== undefined && (parseDay(day) === null || day > LAST_PERIOD_DAY);
  });
  if (outOfRange.length > 0) {
    throw validationError(outOfRange.map((bound) => ({ path: bound, code: 'invalid_value', message: `${bound} must be a day from 0001-01-01 to ${LAST_PERIOD_DAY}.` })));
  }
  if (input.from && input.to && input.from > input.to) {
    throw validationError([{ path: 'from', code: 'invalid_value', message: 'from must not be after to.' }]);
  }
}
