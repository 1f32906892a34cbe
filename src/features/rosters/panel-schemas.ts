import { Type, type Static } from '@sinclair/typebox';
import { closed, OneOf } from '../../lib/schema-pieces.js';
import { DEFAULT_MAX_DROP_RATIO } from './import-roster.js';
import { ROSTER_FILE_FORMATS } from './import-roster-files.js';
import { MAX_CODE_LENGTH } from './parse-roster.js';
import { ENROLLMENT_STATUSES } from './table.js';

const UUID = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';
/** The roster files' body limit: the /v1 import's 10 MiB (contract decisions). */
export const ROSTER_FILES_BODY_LIMIT = 10 * 1024 * 1024;

export const PageQuery = Type.Object(
  {
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_147_483_647 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
    classGroupId: Type.Optional(Type.String({ pattern: UUID, description: 'Classes: only those of this class group' })),
  },
  closed,
);
export type PageQuery = Static<typeof PageQuery>;

const Named = Type.Object({ id: Type.String(), code: Type.String(), name: Type.String() });
export const ClassItem = Type.Object({
  id: Type.String(),
  code: Type.String(),
  name: Type.String(),
  classGroup: Type.Union([Named, Type.Null()]),
  course: Named,
  orgUnit: Named,
  enrolled: Type.Integer(),
  completed: Type.Integer(),
  dropped: Type.Integer(),
});

const ClassDiff = Type.Object({
  classCode: Type.String(),
  created: Type.Integer(),
  updated: Type.Integer(),
  unchanged: Type.Integer(),
  dropped: Type.Integer({ description: 'Enrollments of the class the sync drops because no row names them' }),
});

export const PanelImportResult = Type.Object({
  result: Type.Ref('RosterImportResult'),
  byClass: Type.Array(ClassDiff, { description: 'The enrollment rows per class, by class code' }),
  events: Type.Integer({ description: 'enrollment.dropped events emitted (0 on a dry run)' }),
  unrecognised: Type.Array(Type.String(), { description: 'Uploaded files that are none of the format’s files (file upload only)' }),
  ignored: Type.Array(Type.String(), { description: 'OneRoster and Canvas uploads: columns the format does not define, and rows read but not imported, with why' }),
});

export const RosterFilesBody = Type.Object(
  {
    mode: OneOf(['upsert', 'sync'] as const),
    dryRun: Type.Optional(Type.Boolean()),
    maxDropRatio: Type.Optional(Type.Number({ minimum: 0, maximum: 1, default: DEFAULT_MAX_DROP_RATIO })),
    format: Type.Optional(
      Type.Union(ROSTER_FILE_FORMATS.map((format) => Type.Literal(format)), {
        default: 'quorum',
        description: 'quorum: the CSVs `quorum roster import DIR` reads; oneroster: a OneRoster 1.1/1.2 CSV package (manifest.csv and the rest); canvas: Canvas SIS import CSVs. As `quorum roster import --format`; a delta OneRoster package may only be upserted.',
      }),
    ),
    files: Type.Array(
      Type.Object({ name: Type.String({ minLength: 1, maxLength: 200 }), content: Type.String({ maxLength: ROSTER_FILES_BODY_LIMIT }) }, closed),
      { minItems: 1, maxItems: 12, description: 'The files of a folder of the format, as `quorum roster import --format <format> DIR` reads them' },
    ),
  },
  closed,
);
export type RosterFilesBody = Static<typeof RosterFilesBody>;

export const EnrollmentStatusBody = Type.Object(
  {
    externalId: Type.String({ minLength: 1, maxLength: MAX_CODE_LENGTH }),
    classCode: Type.String({ minLength: 1, maxLength: MAX_CODE_LENGTH }),
    status: OneOf(ENROLLMENT_STATUSES),
  },
  closed,
);
export type EnrollmentStatusBody = Static<typeof EnrollmentStatusBody>;

export const EnrollmentStatusResult = Type.Object({
  changed: Type.Boolean({ description: 'false: the enrollment already had that status (nothing written, nothing emitted)' }),
  fromStatus: Type.Union([OneOf(ENROLLMENT_STATUSES), Type.Null()]),
  events: Type.Integer({ description: 'enrollment.dropped events emitted' }),
});
