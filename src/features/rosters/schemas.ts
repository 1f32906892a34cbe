import { Type } from '@sinclair/typebox';
import { ENROLLMENT_STATUSES } from './table.js';
import { DEFAULT_MAX_DROP_RATIO, MAX_ROSTER_ROWS } from './import-roster.js';

const Timestamp = Type.String({ format: 'date-time', description: 'UTC, milliseconds: 2026-03-01T12:00:00.000Z' });
const Day = Type.Union([Type.String({ format: 'date' }), Type.Null()]);
const NullableString = Type.Union([Type.String(), Type.Null()]);
const Status = Type.Union(ENROLLMENT_STATUSES.map((s) => Type.Literal(s)));

export const ClassGroup = Type.Object(
  {
    id: Type.String(),
    code: Type.String({ description: "The caller's code, unique per company" }),
    name: Type.String(),
    startsOn: Day,
    endsOn: Day,
    classCount: Type.Integer({ description: 'Classes in the group' }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { $id: 'ClassGroup', title: 'Class group', additionalProperties: false },
);

export const Enrollment = Type.Object(
  {
    id: Type.String(),
    status: Status,
    statusChangedAt: Timestamp,
    createdAt: Timestamp,
    person: Type.Object(
      { id: Type.String(), externalId: Type.String(), name: Type.String(), email: NullableString, phone: NullableString },
      { additionalProperties: false },
    ),
    class: Type.Object(
      {
        id: Type.String(),
        code: Type.String(),
        name: Type.String(),
        classGroupId: NullableString,
        courseItemId: Type.String(),
        orgUnitId: Type.String(),
      },
      { additionalProperties: false },
    ),
  },
  { $id: 'Enrollment', title: 'Enrollment', additionalProperties: false },
);

const Rows = (description: string) =>
  Type.Optional(Type.Array(Type.Unknown(), { maxItems: MAX_ROSTER_ROWS, description: `${description} A row that does not fit is reported in errors and skipped.` }));

const EntityRows = (description: string) =>
  Type.Optional(
    Type.Array(Type.Unknown(), {
      maxItems: MAX_ROSTER_ROWS,
      description: `*(extension)* ${description} Upserted by code (1–64 letters, digits or . _ : -) before the classes; an invalid row refuses the whole import (400 VALIDATION_ERROR naming it).`,
    }),
  );

export const RosterImport = Type.Object(
  {
    mode: Type.Union([Type.Literal('upsert'), Type.Literal('sync')], {
      description:
        'upsert creates and updates the rows sent. sync also drops the enrolled or completed enrollments of the listed classes ' +
        '(those of the classes rows and of valid enrollment rows) that no enrollment row names.',
    }),
    dryRun: Type.Optional(Type.Boolean({ default: false, description: 'Report what the import would do, apply nothing.' })),
    maxDropRatio: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: 1,
        default: DEFAULT_MAX_DROP_RATIO,
        description: "sync: the largest share of a class's active enrollments it may drop; above it nothing is applied (409 DROP_THRESHOLD_EXCEEDED).",
      }),
    ),
    people: Rows('`{ externalId, name, email?, phone? }`: externalId is unique per company; phone is normalised to E.164 with the company default country.'),
    classGroups: Rows('`{ code, name, startsOn?, endsOn? }`, dates YYYY-MM-DD.'),
    classes: Rows(
      '`{ code, name, classGroupCode?, courseCode?, orgUnitCode?, teacherCodes? }`: codes of class groups and of registered course, unit and ' +
        'teacher entities; courseCode and orgUnitCode are required for a class not stored yet.',
    ),
    orgUnits: EntityRows('`{ code, name, parentCode? }`: units of the tree (parentCode names a unit of this list or a stored one).'),
    courses: EntityRows('`{ code, name }`: courses the classes name.'),
    teachers: EntityRows('`{ code, name }`: teachers the classes name.'),
    enrollments: Type.Array(Type.Unknown(), {
      maxItems: MAX_ROSTER_ROWS,
      description: `\`{ externalId, classCode, status }\`, status enrolled, completed or dropped; at most ${MAX_ROSTER_ROWS} rows. A person and a class named here must be in this payload or stored. A row that does not fit is reported in errors and skipped.`,
    }),
  },
  {
    $id: 'RosterImport',
    title: 'Roster import',
    additionalProperties: false,
    description: 'An optional field omitted from a row keeps the stored value; null clears it (not courseCode or orgUnitCode).',
  },
);

const Counts = Type.Object(
  { people: Type.Integer(), classes: Type.Integer(), classGroups: Type.Integer(), enrollments: Type.Integer() },
  { additionalProperties: false },
);

export const RosterImportResult = Type.Object(
  {
    dryRun: Type.Boolean(),
    created: Counts,
    updated: Counts,
    unchanged: Counts,
    dropped: Type.Integer({ description: 'Enrollments the sync dropped because no row named them (a row with status dropped counts in updated).' }),
    errors: Type.Array(
      Type.Object(
        {
          index: Type.Integer({ description: 'Zero-based index of the row in its list' }),
          path: Type.String({ description: 'The list, the index and the field, as enrollments[3].status' }),
          code: Type.String(),
          message: Type.String(),
        },
        { additionalProperties: false },
      ),
    ),
    entities: Type.Optional(
      Type.Object(
        { created: Type.Integer(), updated: Type.Integer(), unchanged: Type.Integer() },
        { additionalProperties: false, description: '*(extension)* The units, courses and teachers of the payload; absent when it had none.' },
      ),
    ),
  },
  { $id: 'RosterImportResult', title: 'Roster import result', additionalProperties: false },
);

export const rosterSchemas = [ClassGroup, Enrollment, RosterImport, RosterImportResult];
