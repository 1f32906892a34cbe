import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

/**
 * The shapes of the providers' callback bodies, as each provider documents them, declared once.
 * Only the fields the receipts read are named; providers add others freely.
 */

/** The documented generic e-mail receipt: { type: delivered|bounced|complained|failed, messageId }. */
export const GenericReceipt = Type.Object({
  type: Type.Union([Type.Literal('delivered'), Type.Literal('bounced'), Type.Literal('complained'), Type.Literal('failed')]),
  messageId: Type.String({ maxLength: 500 }),
});

/** A WhatsApp Cloud API webhook: entry[].changes[].value.statuses[]; other changes (messages) are skipped, not refused. */
export const WhatsappWebhook = Type.Object({ entry: Type.Array(Type.Unknown()) });
export const WhatsappEntry = Type.Object({ changes: Type.Array(Type.Unknown()) });
export const WhatsappChange = Type.Object({ value: Type.Object({ statuses: Type.Array(Type.Unknown()) }) });
export const WhatsappStatus = Type.Object({ id: Type.String(), status: Type.String() });

/**
 * A Postmark webhook: one JSON object whose fields say what happened. Their values are compared
 * with the documented ones, so an unexpected value means "nothing to record", not a refusal.
 */
export const PostmarkWebhook = Type.Object({
  RecordType: Type.Optional(Type.Unknown()),
  Type: Type.Optional(Type.Unknown()),
  SuppressSending: Type.Optional(Type.Unknown()),
  SuppressionReason: Type.Optional(Type.Unknown()),
  Origin: Type.Optional(Type.Unknown()),
  Metadata: Type.Optional(Type.Unknown()),
});
export type PostmarkWebhook = Static<typeof PostmarkWebhook>;
/** Postmark's custom metadata: string keys and values. */
export const PostmarkMetadata = Type.Record(Type.String(), Type.Unknown());

/** The elements of `values` that have the shape `schema` (a provider's list may mix in kinds we do not read). */
export function ofShape<T extends TSchema>(schema: T, values: readonly unknown[]): Static<T>[] {
  return values.filter((value): value is Static<T> => Value.Check(schema, value));
}
