import { sql, type SQL } from 'drizzle-orm';

/**
 * A timestamptz as the contract's RFC 3339 text, formatted by Postgres: UTC, milliseconds and a Z
 * (2026-01-02T03:04:05.678Z), the text Date.toISOString() writes, for rows read or built as JSON.
 */
export function isoTimestamp(at: SQL): SQL {
  return sql`to_char(${at} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}
