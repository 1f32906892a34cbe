import { Type } from '@sinclair/typebox';
import { FORM_LANGUAGES, QUESTION_TYPES, type FormLanguage, type QuestionType } from './definition/vocabulary.js';

/** Shared ($id) schemas of the form routes, registered in build-app's sharedSchemas. */

const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601 in UTC with milliseconds' });

export const FormListItem = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    slug: Type.String({ description: 'Name of the form in its public link' }),
    isPublic: Type.Boolean(),
    isClosed: Type.Boolean(),
    requiresInvite: Type.Boolean(),
    questionCount: Type.Integer({ minimum: 0 }),
    responseCount: Type.Integer({ minimum: 0 }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  {
    $id: 'FormListItem',
    title: 'Form (list item)',
    examples: [
      {
        id: '019a2f4e-7c1d-7b3a-9f00-5d1e2a3b4c5d',
        name: 'End-of-term evaluation',
        slug: 'term-evaluation',
        isPublic: false,
        isClosed: false,
        requiresInvite: true,
        questionCount: 16,
        responseCount: 42,
        createdAt: '2026-03-01T12:00:00.000Z',
        updatedAt: '2026-03-02T08:30:00.000Z',
      },
    ],
  },
);

export const FormChoice = Type.Object(
  { id: Type.String(), name: Type.String(), order: Type.Integer({ minimum: 0, description: 'Zero-based position' }) },
  { $id: 'FormChoice', title: 'Option, matrix row or matrix column' },
);

const Choices = (description: string) => Type.Array(Type.Ref(FormChoice), { description });

export const FormQuestion = Type.Object(
  {
    id: Type.String({ description: 'Key used in response answers' }),
    name: Type.String({ description: 'The question text' }),
    type: Type.Unsafe<QuestionType>({ type: 'string', enum: [...QUESTION_TYPES], description: 'Question type; decides the shape of its answer value' }),
    mandatory: Type.Boolean(),
    options: Choices('Choice types (RADIO, SELECT, CHECKBOX, RANKING): the options in order. Always present; empty for other types.'),
    rows: Type.Optional(Choices('MATRIX only: the rows, whose ids are the keys of a MATRIX answer.')),
    columns: Type.Optional(Choices('MATRIX only: the columns, whose ids are the values of a MATRIX answer.')),
  },
  { $id: 'FormQuestion', title: 'Question' },
);

export const FormSection = Type.Object(
  { id: Type.String(), name: Type.String(), questions: Type.Array(Type.Ref(FormQuestion)) },
  { $id: 'FormSection', title: 'Section' },
);

const FormLanguageName = Type.Unsafe<FormLanguage>({ type: 'string', enum: [...FORM_LANGUAGES] });

export const FormDetail = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    content: Type.Object({ sections: Type.Array(Type.Ref(FormSection)) }),
    languages: Type.Optional(
      Type.Array(FormLanguageName, { description: "Extension: the languages the form's respondents may choose, its own first (the language of name and content), then each complete translation. Absent when the form offers one language." }),
    ),
    translations: Type.Optional(
      Type.Record(
        Type.String(),
        Type.Object({ name: Type.String(), content: Type.Object({ sections: Type.Array(Type.Ref(FormSection)) }) }),
        { description: 'Extension: for each further language of `languages`, the name and content in it: the same ids in the same order, only the texts differ. Absent with `languages`.' },
      ),
    ),
  },
  {
    $id: 'FormDetail',
    title: 'Form (detail)',
    examples: [
      {
        id: '019a2f4e-7c1d-7b3a-9f00-5d1e2a3b4c5d',
        name: 'End-of-term evaluation',
        content: {
          sections: [
            {
              id: '019a2f4e-7c1d-7b3a-9f00-000000000001',
              name: 'About you',
              questions: [
                {
                  id: '019a2f4e-7c1d-7b3a-9f00-000000000002',
                  name: 'Where do you study?',
                  type: 'RADIO',
                  mandatory: true,
                  options: [
                    { id: '019a2f4e-7c1d-7b3a-9f00-000000000003', name: 'North campus', order: 0 },
                    { id: '019a2f4e-7c1d-7b3a-9f00-000000000004', name: 'South campus', order: 1 },
                  ],
                },
                {
                  id: '019a2f4e-7c1d-7b3a-9f00-000000000005',
                  name: 'Rate your teacher',
                  type: 'MATRIX',
                  mandatory: false,
                  options: [],
                  rows: [{ id: '019a2f4e-7c1d-7b3a-9f00-000000000006', name: 'Clarity', order: 0 }],
                  columns: [
                    { id: '019a2f4e-7c1d-7b3a-9f00-000000000007', name: 'Poor', order: 0 },
                    { id: '019a2f4e-7c1d-7b3a-9f00-000000000008', name: 'Good', order: 1 },
                  ],
                },
              ],
            },
          ],
        },
      },
    ],
  },
);

export const formSchemas = [FormListItem, FormChoice, FormQuestion, FormSection, FormDetail];
