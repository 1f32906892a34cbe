import { Type, type Static } from '@sinclair/typebox';
import { cursorQueryFields } from '../../platform/app/pagination.js';
import { INVITE_STATUSES, MAX_INVITE_IDS, SendInvitesBody } from './schemas.js';
import { MAX_FILE_ROWS } from './read-import-file.js';

const closed = { additionalProperties: false } as const;
const Status = Type.Union(INVITE_STATUSES.map((s) => Type.Literal(s)));

export const FormIdParams = Type.Object({ id: Type.String({ maxLength: 64, description: 'Form id' }) });
export const InviteIdParams = Type.Object({ id: Type.String({ maxLength: 64, description: 'Invite id' }) });
export type IdParams = Static<typeof FormIdParams>;

export const PanelInviteQuery = Type.Object({ ...cursorQueryFields, status: Type.Optional({ ...Status, description: 'Stored status (not effectiveStatus), as GET /v1/forms/{id}/invites' }) }, closed);

export const InviteForm = Type.Object(
  { id: Type.String(), name: Type.String(), slug: Type.String(), isClosed: Type.Boolean(), requiresInvite: Type.Boolean() },
  { title: 'Form to invite to' },
);

export const InviteCounts = Type.Record(Type.String(), Type.Integer({ minimum: 0 }), { description: 'Invites per effectiveStatus, every status present' });

export const TimelineStep = Type.Object(
  {
    stage: Status,
    at: Type.String({ format: 'date-time' }),
    channel: Type.Union([Type.Literal('email'), Type.Literal('whatsapp'), Type.Null()]),
    failReason: Type.Union([Type.Literal('bounced'), Type.Literal('suppressed'), Type.Literal('send_failed'), Type.Null()]),
    dueAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'queued: when a scheduled message is due' }),
  },
  { title: 'Timeline step' },
);

export const RevokeSelectionBody = Type.Object({ inviteIds: Type.Array(Type.String({ maxLength: 64 }), { minItems: 1, maxItems: MAX_INVITE_IDS }) }, closed);
export type RevokeSelectionBody = Static<typeof RevokeSelectionBody>;

export const RevokeSelectionResult = Type.Object({ revoked: Type.Array(Type.String()), unchanged: Type.Array(Type.String()) });

/** The /v1 send body (with its dryRun); the panel's own copy has no $id, so both documents stay apart. */
export const PanelSendBody = Type.Object({ ...SendInvitesBody.properties }, closed);
export type PanelSendBody = Static<typeof PanelSendBody>;

/** 16 MiB of file: base64 makes a third more, so 22 MiB of text. */
export const IMPORT_FILE_BYTES = 16 * 1024 * 1024;
export const ReadFileBody = Type.Object(
  {
    fileName: Type.String({ minLength: 1, maxLength: 255, description: 'Its name: .xlsx is read as a workbook, anything else as CSV' }),
    content: Type.String({ maxLength: Math.ceil(IMPORT_FILE_BYTES / 3) * 4, contentEncoding: 'base64', description: 'The file, base64' }),
  },
  closed,
);
export type ReadFileBody = Static<typeof ReadFileBody>;

export const ImportFile = Type.Object({
  columns: Type.Array(Type.String()),
  rows: Type.Array(Type.Object({ line: Type.Integer(), cells: Type.Array(Type.String()) }), { maxItems: MAX_FILE_ROWS }),
});

/** Rows per request of the panel's import: the web app sends a file in parts of this size, with progress between them. */
export const MAX_IMPORT_ROWS = 2000;
export const ImportRowsBody = Type.Object(
  {
    columns: Type.Array(Type.String({ maxLength: 60 }), { minItems: 1, maxItems: 30, description: 'Each cell position mapped to name, email, phone, externalId, expiresAt or dim.<key>' }),
    rows: Type.Array(
      Type.Object({ line: Type.Integer({ minimum: 1, maximum: 10_000_000 }), cells: Type.Array(Type.String({ maxLength: 1000 }), { maxItems: 30 }) }, closed),
      { maxItems: MAX_IMPORT_ROWS },
    ),
    batchId: Type.Optional(Type.String({ maxLength: 64, description: 'The batch the first part created: later parts append to it' })),
    dryRun: Type.Optional(Type.Boolean({ description: 'Check every row, write nothing' })),
  },
  closed,
);
export type ImportRowsBody = Static<typeof ImportRowsBody>;

const ListedRow = Type.Object({ line: Type.Integer(), email: Type.Union([Type.String(), Type.Null()]), phone: Type.Union([Type.String(), Type.Null()]) });
const FieldErrorItem = Type.Object({ path: Type.String(), code: Type.String(), message: Type.String() });
export const ImportSummary = Type.Object({
  batchId: Type.Union([Type.String(), Type.Null()], { description: 'null for a dry run' }),
  rows: Type.Integer(),
  created: Type.Integer(),
  duplicates: Type.Integer(),
  invalid: Type.Integer(),
  duplicateRows: Type.Array(ListedRow),
  invalidRows: Type.Array(Type.Object({ line: Type.Integer(), errors: Type.Array(FieldErrorItem) })),
});
