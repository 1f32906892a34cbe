/** JSON Schema (TypeBox) of the authoring file. Custom `errorCode` / `errorMessage` options word pattern errors. */
import { Type, type TLiteral, type TUnion } from '@sinclair/typebox';
import { DIM_KINDS, DIM_SOURCES, FORM_LANGUAGES, QUESTION_TYPES } from './vocabulary.js';

function literalUnion<T extends string>(values: readonly T[], options: object = {}): TUnion<TLiteral<T>[]> {
  return Type.Union(values.map((value) => Type.Literal(value)), options) as TUnion<TLiteral<T>[]>;
}

/** Human text: non-empty and not only blanks. */
function humanText(maxLength: number) {
  return Type.String({ minLength: 1, maxLength, pattern: '\\S', errorCode: 'required', errorMessage: 'must not be blank' });
}

const DIM_KEY_PATTERN = '^[a-z][a-zA-Z0-9_]{0,39}$';
const DIM_KEY_MESSAGE = 'must be 1 to 40 letters, digits or _, starting with a lower-case letter';
/** Hidden fields become dims: with the declared dims they stay within the 20 dims a form may have. */
export const MAX_HIDDEN_FIELDS = 10;
export const MAX_DIMS = 20;

const KEY_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$';
const ItemKey = Type.String({
  pattern: KEY_PATTERN,
  errorMessage: 'must be 1 to 64 letters, digits or . _ : -, starting with a letter or digit',
});
const Description = Type.String({ maxLength: 5000 });
const ExplicitId = Type.String();

const ChoiceSchema = Type.Object(
  {
    id: Type.Optional(ExplicitId),
    key: ItemKey,
    name: humanText(500),
    /** options only ("Other", "None of the above"): kept last, in file order, when the section shuffles options */
    anchored: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
const Choices = Type.Array(ChoiceSchema, { maxItems: 200 });

const Operand = Type.Union([Type.String(), Type.Number(), Type.Boolean()]);
const OrderedOperand = Type.Union([Type.Number(), Type.String()]);

export const LeafConditionSchema = Type.Object(
  {
    question: ItemKey,
    equals: Type.Optional(Operand),
    notEquals: Type.Optional(Operand),
    in: Type.Optional(Type.Array(Operand, { minItems: 1, maxItems: 200 })),
    gte: Type.Optional(OrderedOperand),
    lte: Type.Optional(OrderedOperand),
    answered: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

/** Combinators are checked one level at a time so that errors point inside nested conditions. */
export const CombinatorSchemas = {
  all: Type.Object({ all: Type.Array(Type.Unknown(), { minItems: 1, maxItems: 50 }) }, { additionalProperties: false }),
  any: Type.Object({ any: Type.Array(Type.Unknown(), { minItems: 1, maxItems: 50 }) }, { additionalProperties: false }),
};

export const QuestionSchema = Type.Object(
  {
    id: Type.Optional(ExplicitId),
    key: ItemKey,
    name: humanText(2000),
    type: literalUnion(QUESTION_TYPES),
    mandatory: Type.Optional(Type.Boolean({ default: false })),
    description: Type.Optional(Description),
    options: Type.Optional(Choices),
    rows: Type.Optional(Choices),
    columns: Type.Optional(Choices),
    min: Type.Optional(Type.Number()),
    max: Type.Optional(Type.Number()),
    step: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
    visibleIf: Type.Optional(Type.Unknown()),
  },
  { additionalProperties: false },
);

export const SectionSchema = Type.Object(
  {
    id: Type.Optional(ExplicitId),
    key: ItemKey,
    name: humanText(500),
    description: Type.Optional(Description),
    visibleIf: Type.Optional(Type.Unknown()),
    /** each respondent sees the section's questions in their own stable order (presented-order.ts) */
    shuffleQuestions: Type.Optional(Type.Boolean()),
    /** likewise the options of its RADIO, SELECT, CHECKBOX and RANKING questions; anchored options stay last */
    shuffleOptions: Type.Optional(Type.Boolean()),
    questions: Type.Array(QuestionSchema, { maxItems: 200 }),
  },
  { additionalProperties: false },
);

export const DimSchema = Type.Object(
  {
    key: Type.String({ pattern: DIM_KEY_PATTERN, errorMessage: DIM_KEY_MESSAGE }),
    kind: literalUnion(DIM_KINDS),
    source: Type.Optional(literalUnion(DIM_SOURCES, { default: 'invite' })),
    question: Type.Optional(ItemKey),
  },
  { additionalProperties: false },
);

export const SettingsSchema = Type.Object(
  {
    isPublic: Type.Optional(Type.Boolean({ default: false })),
    isClosed: Type.Optional(Type.Boolean({ default: false })),
    requiresInvite: Type.Optional(Type.Boolean({ default: false })),
    anonymous: Type.Optional(Type.Boolean({ default: false })),
    /** language of the respondent pages; absent: the respondent's Accept-Language (en, pt-BR, es), else the company's locale */
    language: Type.Optional(literalUnion(FORM_LANGUAGES)),
    /** from this instant the form takes no answers, as if closed by hand; absent: no closing date */
    closesAt: Type.Optional(Type.String({ maxLength: 40, description: 'RFC 3339 instant, checked in validate.ts' })),
  },
  { additionalProperties: false, default: {} },
);

/**
 * The invitation e-mail of the form (contract decisions, "Invites and sending"): Mustache
 * templates whose variables are checked by hand (email-template-errors.ts); a part left out
 * falls back to the default template.
 */
export const EmailSchema = Type.Object(
  {
    subject: Type.Optional(Type.String({ minLength: 1, maxLength: 255, pattern: '^[^\\r\\n]*\\S[^\\r\\n]*$', errorCode: 'invalid_format', errorMessage: 'must be one line, not blank' })),
    body: Type.Optional(humanText(10_000)),
  },
  { additionalProperties: false, minProperties: 1 },
);

/** A translation of one section's texts (either may be left out: see translations.ts on completeness). */
const SectionTranslation = Type.Object({ name: Type.Optional(humanText(500)), description: Type.Optional(Description) }, { additionalProperties: false });
/** Choice key → its text in the language, bounded like the choice's own name. */
const ChoiceTranslations = Type.Record(Type.String(), humanText(500));
const QuestionTranslation = Type.Object(
  {
    name: Type.Optional(humanText(2000)),
    description: Type.Optional(Description),
    options: Type.Optional(ChoiceTranslations),
    rows: Type.Optional(ChoiceTranslations),
    columns: Type.Optional(ChoiceTranslations),
  },
  { additionalProperties: false },
);

/**
 * The form's texts in one more language, keyed by the stable keys of the file (section keys,
 * question keys, option, row and column keys); each text bounded like the one it translates.
 * Keys and languages are checked by hand (translations.ts).
 */
export const TranslationSchema = Type.Object(
  {
    name: Type.Optional(humanText(200)),
    description: Type.Optional(Description),
    thankYou: Type.Optional(humanText(2000)),
    sections: Type.Optional(Type.Record(Type.String(), SectionTranslation)),
    questions: Type.Optional(Type.Record(Type.String(), QuestionTranslation)),
  },
  { additionalProperties: false },
);

/** JSON Schema of the authoring file (conditions are typed `unknown` here and checked by hand). */
export const FormDefinitionSchema = Type.Object(
  {
    version: Type.Optional(Type.Literal(1)),
    slug: Type.String({
      pattern: '^[a-z0-9][a-z0-9-]{0,62}$',
      errorMessage: 'must be 1 to 63 lower-case letters, digits or hyphens, starting with a letter or digit',
    }),
    name: humanText(200),
    description: Type.Optional(Description),
    /** the thank-you page's text after a response, in the form's language; absent: the pages' own thanks */
    thankYou: Type.Optional(humanText(2000)),
    settings: Type.Optional(SettingsSchema),
    dims: Type.Optional(Type.Array(DimSchema, { maxItems: MAX_DIMS, default: [] })),
    /**
     * Hidden fields of the public link: query parameters by these names are stored with the
     * response as text dims (source link) of the same key. Checked in hidden-field-errors.ts.
     */
    hiddenFields: Type.Optional(Type.Array(Type.String({ pattern: DIM_KEY_PATTERN, errorMessage: DIM_KEY_MESSAGE }), { maxItems: MAX_HIDDEN_FIELDS })),
    sections: Type.Array(SectionSchema, { minItems: 1, maxItems: 100 }),
    email: Type.Optional(EmailSchema),
    /** The reminder e-mail (reminder schedules), same shape and variables; absent parts use the default reminder in the form's language. */
    reminder: Type.Optional(EmailSchema),
    /** language (en, pt-BR, es; not the form's own settings.language) → the form's texts in it */
    translations: Type.Optional(Type.Record(Type.String(), TranslationSchema)),
  },
  { additionalProperties: false },
);
