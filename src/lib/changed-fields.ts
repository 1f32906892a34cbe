/** One changed field of an audit record: its value before and after the act. */
export interface FieldChange {
  from: unknown;
  to: unknown;
}

/**
 * The fields whose value differs between two snapshots of a record (compared as JSON, so lists and
 * objects count by content), for the "what changed" of an audit record. Callers pass only
 * non-secret fields: a secret is recorded as replaced, never by value.
 */
export function changedFields(before: Record<string, unknown>, after: Record<string, unknown>): Record<string, FieldChange> {
  const changes: Record<string, FieldChange> = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const from = before[key] ?? null;
    const to = after[key] ?? null;
    if (JSON.stringify(from) !== JSON.stringify(to)) changes[key] = { from, to };
  }
  return changes;
}
