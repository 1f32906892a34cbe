import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { closed, Nullable, NullableString, OneOf } from '../../../lib/schema-pieces.js';
import { RespondentSchema, respondentData, type RespondentInput } from '../respondent.js';
import { schemasByType } from './schemas-by-type.js';
import { INVITE_EVENT_TYPES } from '../vocabulary.js';

export type InviteEventType = (typeof INVITE_EVENT_TYPES)[number];

export const INVITE_CHANNELS = ['email', 'whatsapp'] as const;
export const FAIL_REASONS = ['bounced', 'suppressed', 'send_failed'] as const;
export type InviteChannel = (typeof INVITE_CHANNELS)[number];
export type FailReason = (typeof FAIL_REASONS)[number];

const inviteDataSchema = <S extends TSchema, F extends TSchema>(status: S, failReason: F) =>
  Type.Object(
    {
      formId: Type.String(),
      formName: NullableString,
      inviteId: Type.String(),
      status,
      channel: Nullable(OneOf(INVITE_CHANNELS)),
      batchId: NullableString,
      sendBatchId: Type.Optional(Type.String()),
      respondent: RespondentSchema,
      failReason,
    },
    closed,
  );

/** The stage each invite.* event reports: the spec's "stage the invite just moved to" is the one it is named after. */
const inviteStage = <T extends InviteEventType>(type: T) =>
  type.slice('invite.'.length) as T extends `invite.${infer Stage}` ? Stage : never;
export type InviteStage = ReturnType<typeof inviteStage<InviteEventType>>;

/** What any invite event may carry; each type pins its status and failReason. */
export const InviteEventDataSchema = inviteDataSchema(OneOf(INVITE_EVENT_TYPES.map(inviteStage)), Nullable(OneOf(FAIL_REASONS)));
export type InviteEventData = Static<typeof InviteEventDataSchema>;

export const INVITE_EVENT_SCHEMAS = schemasByType(INVITE_EVENT_TYPES, (type) =>
  inviteDataSchema(Type.Literal(inviteStage(type)), type === 'invite.failed' ? OneOf(FAIL_REASONS) : Type.Null()),
);
export type InviteEventDataByType = Record<InviteEventType, InviteEventData>;

export interface InviteEventInput {
  formId: string;
  formName: string | null;
  inviteId: string;
  channel: InviteChannel | null;
  /** The invite's own batch: its import's, null when it was created individually (POST /forms/{id}/invites). */
  batchId: string | null;
  /**
   * Extension: the send call (its result's batchId) of the message the event reports; absent
   * when the invite was never sent, so an unsent invite's data is exactly the spec's fields.
   */
  sendBatchId?: string | null;
  respondent?: RespondentInput | null;
  /** Read only for invite.failed, where it is required; every other type sends null. */
  failReason?: FailReason | null;
}

type InviteInputFor<T extends InviteEventType> = T extends 'invite.failed'
  ? InviteEventInput & { failReason: FailReason }
  : InviteEventInput;

/** status is the stage named by the type (invite.sent → "sent", invite.expired → "expired"). */
export function inviteEventData<T extends InviteEventType>(type: T, input: InviteInputFor<T>): InviteEventData {
  return {
    formId: input.formId,
    formName: input.formName,
    inviteId: input.inviteId,
    status: inviteStage(type),
    channel: input.channel,
    batchId: input.batchId,
    ...(input.sendBatchId ? { sendBatchId: input.sendBatchId } : {}),
    respondent: respondentData(input.respondent),
    failReason: inviteFailReason(type, input.failReason),
  };
}

function inviteFailReason(type: InviteEventType, failReason: FailReason | null | undefined): FailReason | null {
  if (type !== 'invite.failed') return null;
  // An invite.failed without a reason would break the contract; fail where the bug is.
  if (!failReason) throw new TypeError('invite.failed needs a failReason');
  return failReason;
}
