import { Type, type TSchema } from '@sinclair/typebox';
import { ORG_SOURCES, type OrgSource } from '../events/index.js';
import type { PresentedOrder } from '../forms/index.js';

/**
 * Shared ($id) schemas of the response routes, registered in build-app's sharedSchemas. They
 * document both routes and serialize GET /responses/{id} (fast-json-stringify), so nullable
 * fields use type arrays, which it dispatches with typeof, rather than anyOf, which it resolves
 * by validating each branch. Pages of GET /forms/{id}/responses bypass the serializer: their
 * items are the stored JSON text (response-json.ts, itemJson), so a scan no longer checks
 * every answer against the AnswerValue anyOf (bench/README.md, responses-scan).
 */

const nullable = <T>(schema: TSchema & { type: string }) => Type.Unsafe<T | null>({ ...schema, type: [schema.type, 'null'] });

const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601 in UTC with milliseconds' });
const NullableString = nullable<string>(Type.String());

const Respondent = nullable<{ name?: string | null; email?: string | null; phone?: string | null; externalId?: string | null }>(
  Type.Object(
    {
      name: Type.Optional(NullableString),
      email: Type.Optional(NullableString),
      phone: Type.Optional(NullableString),
      externalId: Type.Optional(NullableString),
    },
    { additionalProperties: false },
  ),
);

export const FileRef = Type.Object(
  { fileId: Type.String(), name: Type.String(), size: Type.Integer({ minimum: 0, description: 'Bytes' }), mime: Type.String() },
  { $id: 'FileRef', title: 'Uploaded file', additionalProperties: false },
);

/** One answer value; its shape follows the question type (spec: Question types and answer value shapes). */
export const AnswerValue = Type.Union(
  [
    Type.String({
      title: 'Text, date, time or single choice',
      description: 'TEXT, PARAGRAPH: the text. DATE: YYYY-MM-DD. TIME: HH:MM. DATETIME: ISO 8601 with a zone. RADIO, SELECT: the chosen option id.',
    }),
    Type.Number({ title: 'Number', description: 'NUMBER, RANGE, NPS (0 to 10), STAR (1 to the maximum).' }),
    Type.Boolean({ title: 'Yes or no', description: 'BOOLEAN.' }),
    Type.Array(Type.String(), {
      title: 'Option ids',
      description: 'CHECKBOX: the chosen option ids. RANKING: every option id, in order of preference.',
    }),
    Type.Object({}, { title: 'Matrix', description: 'MATRIX: row id → column id.', additionalProperties: Type.String() }),
    Type.Array(Type.Ref(FileRef), { title: 'Files', description: 'FILE.' }),
  ],
  { $id: 'AnswerValue', title: 'Answer value' },
);

const Answers = Type.Object(
  {},
  {
    additionalProperties: Type.Ref(AnswerValue),
    description:
      'Keys are question ids (GET /forms/{id}); values per question type. A question hidden by conditional logic or in a skipped section has no key: absence means not applicable, not unanswered.',
  },
);

const Dims = Type.Object(
  {},
  {
    additionalProperties: Type.String(),
    description:
      'Slicing fields stamped on the response, by key. Values are canonical strings: registered entities (course, teacher, unit) by id, a number as its decimal text, a date as YYYY-MM-DD. Empty when the form declares none.',
  },
);

/** Extension (randomisation): the order the respondent was shown, for the sections that shuffle. */
const PresentedOrderSchema = nullable<PresentedOrder>(
  Type.Object(
    {},
    {
      additionalProperties: Type.Object(
        {
          questions: Type.Optional(Type.Array(Type.String(), { description: 'Question ids in the order shown (shuffleQuestions).' })),
          options: Type.Optional(Type.Object({}, { additionalProperties: Type.Array(Type.String()), description: 'Question id → option ids in the order shown (shuffleOptions).' })),
        },
        { additionalProperties: false },
      ),
      description:
        'Extension. Section id → the order the respondent pages showed that section in, for sections with shuffleQuestions or shuffleOptions; null when no section shuffles or there is no seed (a public submit without a submission token, an import). It is the order the pages show for the invite or the token, also when a client rendered the form itself.',
    },
  ),
);

const responseFields = {
  id: Type.String(),
  formId: Type.String(),
  respondent: { ...Respondent, description: 'Who answered: from the invite (never forged by the respondent) or from public-link prefill parameters; null when unknown.' },
  completedAt: nullable<string>({ ...Timestamp, description: 'When the response was finalized; null when not recorded.' }),
  createdAt: Timestamp,
  dims: Dims,
};

const EXAMPLE = {
  id: '019a3b1c-2d4e-7f60-8a1b-2c3d4e5f6a7b',
  formId: '019a2f4e-7c1d-7b3a-9f00-5d1e2a3b4c5d',
  respondent: { name: 'Ana Souza', email: 'ana@example.edu', phone: null, externalId: 'S-1042' },
  completedAt: '2026-03-01T12:00:00.000Z',
  createdAt: '2026-03-01T12:00:00.000Z',
  dims: { course: '019a2f4e-7c1d-7b3a-9f00-00000000c001', cohortYear: '2026', termStart: '2026-02-02' },
};
const EXAMPLE_ANSWERS = { '019a2f4e-7c1d-7b3a-9f00-000000000002': '019a2f4e-7c1d-7b3a-9f00-000000000003', '019a2f4e-7c1d-7b3a-9f00-000000000009': 9 };

/** An item of GET /forms/{id}/responses: exactly the spec's Response. */
export const ResponseItem = Type.Object(
  { ...responseFields, answers: Type.Optional({ ...Answers, description: `Only with include=answers. ${Answers.description}` }) },
  { $id: 'Response', title: 'Response', additionalProperties: false, examples: [EXAMPLE, { ...EXAMPLE, answers: EXAMPLE_ANSWERS }] },
);

/** GET /responses/{id}: the Response with its answers always, plus invite and org unit. */
export const ResponseRecord = Type.Object(
  {
    ...responseFields,
    answers: Answers,
    inviteId: { ...NullableString, description: 'The invite the response came from; null on the public link.' },
    orgUnitId: { ...NullableString, description: 'Unit where the response happened.' },
    orgPath: { ...NullableString, description: 'Path /<id>/<id>/ of that unit, for grouping by subtree with a prefix test.' },
    orgSource: Type.Unsafe<OrgSource>({ type: 'string', enum: [...ORG_SOURCES], description: 'Where the org unit came from.' }),
    presentedOrder: PresentedOrderSchema,
  },
  {
    $id: 'ResponseRecord',
    title: 'Response (full record)',
    additionalProperties: false,
    examples: [{ ...EXAMPLE, answers: EXAMPLE_ANSWERS, inviteId: null, orgUnitId: null, orgPath: null, orgSource: 'none', presentedOrder: null }],
  },
);

export const responseSchemas = [FileRef, AnswerValue, ResponseItem, ResponseRecord];
