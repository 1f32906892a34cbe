import type { TSchema } from '@sinclair/typebox';

/** One data schema per type of a family, each pinning what its type fixes. */
export function schemasByType<T extends string>(types: readonly T[], schemaFor: (type: T) => TSchema): Record<T, TSchema> {
  return Object.fromEntries(types.map((type) => [type, schemaFor(type)])) as Record<T, TSchema>;
}
