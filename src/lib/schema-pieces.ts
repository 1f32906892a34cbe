import { Type, type TSchema } from '@sinclair/typebox';

/** Small TypeBox pieces shared by the payload schemas. */
export const closed = { additionalProperties: false } as const;
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
export const OneOf = <T extends string>(values: readonly T[]) => Type.Union(values.map((value) => Type.Literal(value)));

/** JSON form of a timestamp in the contract: millisecond ISO 8601 in UTC, as Date#toISOString writes it. */
export const Timestamp = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$' });
export const NullableString = Nullable(Type.String());

export const isoOrNull = (date: Date | null): string | null => (date ? date.toISOString() : null);
