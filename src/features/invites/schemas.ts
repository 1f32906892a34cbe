import { Type, type Static, type TSchema } from '@sinclair/typebox';

/** Shared ($id) schemas of the invite routes, registered in build-app's sharedSchemas. */

const nullable = <T>(schema: TSchema & { type: string }) => Type.Unsafe<T | null>({ ...schema, type: [schema.type, 'null'] });
const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601 in UTC with milliseconds' });

export const INVITE_STATUSES = ['created', 'queued', 'sent', 'delivered', 'opened', 'started', 'responded', 'failed', 'revoked', 'expired'] as const;
export type InviteStatus = (typeof INVITE_STATUSES)[number];
const Status = (description: string) => Type.Union(INVITE_STATUSES.map((s) => Type.Literal(s)), { description });

export const Invite = Type.Object(
  {
    id: Type.String(),
    token: Type.String({ description: 'Token of the personal link' }),
    url: Type.String({ description: 'The personal link: {form_url}/{token}' }),
    status: Status('Stored status'),
    effectiveStatus: Status('The value to display: expired once expiresAt has passed (unless responded or revoked), even before the expiry is stored'),
    email: nullable<string>(Type.String()),
    phone: nullable<string>(Type.String({ description: 'E.164' })),
    name: nullable<string>(Type.String()),
    externalId: nullable<string>(Type.String()),
    expiresAt: nullable<string>(Timestamp),
    dims: Type.Record(Type.String(), Type.String(), { description: '(extension) canonical dims: entity ids, decimal text, YYYY-MM-DD' }),
    batchId: nullable<string>(Type.String({ description: '(extension) the bulk import that created it; null when created by this API' })),
    createdAt: Timestamp,
  },
  { $id: 'Invite', title: 'Invite', additionalProperties: false },
);
export type InviteView = Static<typeof Invite>;

/** The longest dim value a caller may send (the bulk import checks the same bound). */
export const DIM_VALUE_MAX_LENGTH = 200;
const text = (maxLength: number, description: string) => Type.Optional(Type.String({ maxLength, description }));

export const CreateInviteBody = Type.Object(
  {
    name: text(200, 'Contact name'),
    email: text(320, 'Contact e-mail; stored trimmed and lower-case. At least one of email and phone is required.'),
    phone: text(40, "Contact phone; stored in E.164, numbers without + read in the company's default country"),
    externalId: text(200, "Caller's identifier, returned in respondent.externalId"),
    expiresAt: Type.Optional(Type.String({ format: 'date-time', description: 'Must be in the future' })),
    dims: Type.Optional(
      Type.Record(Type.String({ maxLength: 40 }), Type.Union([Type.String({ maxLength: DIM_VALUE_MAX_LENGTH }), Type.Number()]), {
        description: 'Slicing values by dim key; for registered entities the id or the caller\'s code',
        maxProperties: 20,
      }),
    ),
  },
  { $id: 'CreateInviteBody', additionalProperties: false },
);
export type CreateInviteInput = Static<typeof CreateInviteBody>;

export const Template = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 512 }),
    language: Type.String({ minLength: 2, maxLength: 15, pattern: '^[a-z]{2,3}(_[A-Z]{2})?$' }),
    variables: Type.Optional(
      Type.Record(Type.String({ pattern: '^[1-9][0-9]?$' }), Type.String({ maxLength: 1000 }), {
        maxProperties: 20,
        description: 'Template parameter number → text with {{name}}, {{url}}, {{formName}}, {{company}}, {{expiresAt}}, {{dims.<key>}} ...',
      }),
    ),
  },
  { additionalProperties: false, description: 'The approved WhatsApp template (channel whatsapp, provider cloud-api)' },
);
export type TemplateInput = Static<typeof Template>;

export const MAX_INVITE_IDS = 1000;

export const SendInvitesBody = Type.Object(
  {
    channel: Type.Union([Type.Literal('email'), Type.Literal('whatsapp')]),
    inviteIds: Type.Optional(Type.Array(Type.String({ maxLength: 64 }), { minItems: 1, maxItems: MAX_INVITE_IDS, description: 'At most 1,000 ids' })),
    batchId: Type.Optional(Type.String({ maxLength: 64, description: 'An import batch or an earlier send batch' })),
    filter: Type.Optional(
      Type.Object({ statuses: Type.Array(Status('Stored status'), { minItems: 1, maxItems: INVITE_STATUSES.length }) }, { additionalProperties: false }),
    ),
    scheduleAt: Type.Optional(Type.String({ format: 'date-time', description: 'A future time holds the messages until then; a past one is ignored' })),
    template: Type.Optional(Template),
    dryRun: Type.Optional(
      Type.Boolean({
        description: '(extension) Answer what the send would do (queued, skipped, the quota it needs against what is left) without writing, queuing, reserving quota or emitting events',
      }),
    ),
  },
  { $id: 'SendInvitesBody', additionalProperties: false },
);
export type SendInvitesInput = Static<typeof SendInvitesBody>;

export const SKIP_REASONS = ['no_email', 'no_phone', 'revoked', 'responded', 'expired', 'suppressed', 'missing_var'] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

export const SendResult = Type.Object(
  {
    batchId: Type.String(),
    queued: Type.Integer({ minimum: 0 }),
    skipped: Type.Array(Type.Object({ id: Type.String(), reason: Type.Union(SKIP_REASONS.map((r) => Type.Literal(r))) }, { additionalProperties: false })),
  },
  { $id: 'SendResult', title: 'Send result', additionalProperties: false },
);

export const SendDryRunResult = Type.Object(
  {
    dryRun: Type.Literal(true),
    queued: Type.Integer({ minimum: 0, description: 'How many messages the send would queue' }),
    skipped: SendResult.properties.skipped,
    quota: Type.Object(
      {
        limit: Type.Integer({ description: "The company's monthly quota" }),
        used: Type.Integer({ description: 'Units spent this month' }),
        reserved: Type.Integer({ description: 'Units held by messages still queued' }),
        left: Type.Integer({ minimum: 0, description: 'limit - used - reserved, at least 0' }),
        requested: Type.Integer({ minimum: 0, description: 'Units the send would reserve (one per queued message)' }),
        fits: Type.Boolean({ description: 'false: the send itself would answer 403 QUOTA_EXCEEDED' }),
        period: Type.String({ description: 'The quota month, YYYY-MM (UTC)' }),
      },
      { additionalProperties: false },
    ),
  },
  { $id: 'SendDryRunResult', title: 'Send dry run (extension)', additionalProperties: false },
);

export const inviteSchemas = [Invite, CreateInviteBody, SendInvitesBody, SendResult, SendDryRunResult];
