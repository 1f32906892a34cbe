import { Type, type Static } from '@sinclair/typebox';
import { closed, Nullable, NullableString } from '../../lib/schema-pieces.js';

/**
 * Who answered, as payloads carry it: all four contact fields, each possibly null; null when
 * anonymous. Here with the event payloads, the lower feature: the response resource and the
 * response and invite events share it.
 */
export const RespondentSchema = Nullable(
  Type.Object({ name: NullableString, email: NullableString, phone: NullableString, externalId: NullableString }, closed),
);
export type Respondent = Static<typeof RespondentSchema>;

/** Any of the four contact fields may be absent in the source; the payload always has all four. */
export interface RespondentInput {
  name?: string | null;
  email?: string | null;
  phone?: string | null;
  externalId?: string | null;
}

export function respondentData(input: RespondentInput | null | undefined): Respondent {
  if (!input) return null;
  return { name: input.name ?? null, email: input.email ?? null, phone: input.phone ?? null, externalId: input.externalId ?? null };
}

/** Where a response's org unit came from. */
export const ORG_SOURCES = ['invite', 'link', 'class', 'answer', 'none'] as const;
export type OrgSource = (typeof ORG_SOURCES)[number];
