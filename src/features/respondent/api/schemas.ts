import { Type, type Static } from '@sinclair/typebox';
import { errorResponsesOf } from '../../../platform/app/envelope.js';
import type { ErrorCode } from '../../../lib/errors.js';
import { closed, Nullable, NullableString, OneOf, Timestamp } from '../../../lib/schema-pieces.js';
import { LOCALES } from '../../companies/index.js';
import { FORM_LANGUAGES } from '../../forms/index.js';
import { FormSection } from '../../forms/index.js';
import { MAX_SECTION_INDEX } from '../save-draft.js';
import { PrefillRespondentSchema } from '../submit-public.js';
import { MAX_TOKEN_LENGTH } from '../submission-token.js';

/** Shared ($id) schemas of the respondent API, published in the OpenAPI document. */

export const RespondentForm = Type.Object(
  {
    id: Type.String(),
    slug: Type.String(),
    name: Type.String(),
    description: NullableString,
    /** settings.language: the pages' language; null: the respondent's Accept-Language, else the company's locale */
    language: Nullable(OneOf(FORM_LANGUAGES)),
    content: Type.Object({ sections: Type.Array(Type.Ref(FormSection)) }),
  },
  { $id: 'RespondentForm', title: 'Form (as a respondent sees it)' },
);

export const RespondentCompany = Type.Object(
  { name: Type.String(), slug: Type.String(), locale: { ...OneOf(LOCALES), description: "The company's language, the last before English; en when the company sets none" } },
  { $id: 'RespondentCompany', title: 'Company (as a respondent sees it)' },
);

const Answers = Type.Record(Type.String(), Type.Unknown(), { description: 'Keyed by question id; each value in the shape of its question type.' });

export const RespondentInvite = Type.Object(
  {
    form: Type.Ref(RespondentForm),
    company: Type.Ref(RespondentCompany),
    respondent: Type.Object({ name: NullableString }),
    draft: Nullable(Type.Object({ answers: Answers, sectionIndex: Type.Integer({ minimum: 0 }), savedAt: Timestamp })),
    status: OneOf(['open', 'responded'] as const),
    expiresAt: Nullable(Timestamp),
  },
  { $id: 'RespondentInvite', title: 'Personal link' },
);

export const PublicFormView = Type.Object(
  {
    form: Type.Ref(RespondentForm),
    company: Type.Ref(RespondentCompany),
    submissionToken: Type.String({
      description:
        'Extension: a one-time token of this opening of the form. Send it with the submit (a second submit with it answers the first ' +
        "response's id, status 200) and with each file upload (required there: a FILE answer may name only the files uploaded with the submit's token).",
    }),
    submissionTokenExpiresAt: { ...Timestamp, description: 'When the token stops being accepted; its unclaimed uploads are then removed.' },
  },
  { $id: 'PublicFormView', title: 'Public link' },
);

export const UploadedFile = Type.Object(
  { fileId: Type.String(), name: Type.String(), size: Type.Integer({ minimum: 0 }), mime: Type.String() },
  { $id: 'UploadedFile', title: 'Uploaded file (the value to put in a FILE answer)' },
);

export const respondentSchemas = [RespondentForm, RespondentCompany, RespondentInvite, PublicFormView, UploadedFile];

export const TokenParams = Type.Object({ token: Type.String({ minLength: 1, maxLength: 200, description: 'The invite token of the personal link' }) }, closed);
export type TokenParamsType = Static<typeof TokenParams>;

export const FormParams = Type.Object(
  {
    companySlug: Type.String({ minLength: 1, maxLength: 100, description: "The company's slug" }),
    formSlug: Type.String({ minLength: 1, maxLength: 100, description: "The form's slug (unique within its company)" }),
  },
  closed,
);
export type FormParamsType = Static<typeof FormParams>;

export const DraftBody = Type.Object(
  { answers: Answers, sectionIndex: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_SECTION_INDEX, description: 'The step the respondent is on (0-based)' })) },
  closed,
);
export type DraftBodyType = Static<typeof DraftBody>;

export const SubmitBody = Type.Object({ answers: Answers }, closed);
export type SubmitBodyType = Static<typeof SubmitBody>;

const SubmissionToken = Type.String({ minLength: 1, maxLength: MAX_TOKEN_LENGTH, description: 'The submissionToken of GET /r/v1/forms/{companySlug}/{formSlug}' });

export const PublicUploadQuery = Type.Object({ submissionToken: SubmissionToken }, closed);
export type PublicUploadQueryType = Static<typeof PublicUploadQuery>;

export const PublicSubmitBody = Type.Object(
  {
    answers: Answers,
    submissionToken: Type.Optional(SubmissionToken),
    respondent: Type.Optional(PrefillRespondentSchema),
    dims: Type.Optional(
      Type.Record(Type.String(), Type.Union([Type.String({ maxLength: 200 }), Type.Number()]), {
        description: 'Dims with source link, the form definition\'s hidden fields included (text, at most 200 characters): an entity id or code, a number, a date YYYY-MM-DD, a text.',
        maxProperties: 50,
      }),
    ),
  },
  closed,
);
export type PublicSubmitBodyType = Static<typeof PublicSubmitBody>;

export const ResponseCreated = Type.Object({ responseId: Type.String() });
export const DraftSaved = Type.Object({ savedAt: Timestamp });

/** Every respondent route may refuse its input or the rate limit. */
export const respondentErrors = (...codes: ErrorCode[]) => errorResponsesOf(['VALIDATION_ERROR', 'RATE_LIMITED', 'INTERNAL_ERROR', ...codes]);
