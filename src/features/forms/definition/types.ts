/** Types of the authoring definition (after defaults) and of the resolved (stored) form. */
import type { Static } from '@sinclair/typebox';
import type { FieldError } from '../../../lib/errors.js';
import type { DimSchema, EmailSchema, FormDefinitionSchema, LeafConditionSchema, QuestionSchema, SectionSchema, SettingsSchema, TranslationSchema } from './schema.js';
import type { DimKind, DimSource, FormLanguage, QuestionType } from './vocabulary.js';

export type Operand = string | number | boolean;
/** A condition tree; leaves differ between the authoring format (keys) and the stored form (ids). */
export type Condition<Leaf> = Leaf | { all: Condition<Leaf>[] } | { any: Condition<Leaf>[] };

export type LeafConditionDefinition = Static<typeof LeafConditionSchema>;
export type ConditionDefinition = Condition<LeafConditionDefinition>;
export type QuestionDefinition = Omit<Static<typeof QuestionSchema>, 'mandatory' | 'visibleIf'> & {
  mandatory: boolean;
  visibleIf?: ConditionDefinition;
};
export type SectionDefinition = Omit<Static<typeof SectionSchema>, 'questions' | 'visibleIf'> & {
  questions: QuestionDefinition[];
  visibleIf?: ConditionDefinition;
};
export type DimDefinition = Omit<Static<typeof DimSchema>, 'source'> & { source: DimSource };
type SettingsInput = Static<typeof SettingsSchema>;
/** The flags with their defaults; language and closesAt stay optional (no default: the pages fall back, no closing date). */
export type FormSettings = Required<Omit<SettingsInput, 'language' | 'closesAt'>> & Pick<SettingsInput, 'language' | 'closesAt'>;
/** The form's texts in one more language, keyed by section, question and choice keys. */
export type FormTranslation = Static<typeof TranslationSchema>;
/** Language → its translation; never the form's own language (validate.ts refuses it). */
export type FormTranslations = Partial<Record<FormLanguage, FormTranslation>>;
/** A validated authoring file with defaults applied (settings, dims, mandatory, dim source). */
export type FormDefinition = Omit<Static<typeof FormDefinitionSchema>, 'settings' | 'dims' | 'sections' | 'translations'> & {
  settings: FormSettings;
  dims: DimDefinition[];
  sections: SectionDefinition[];
  translations?: FormTranslations;
};
/** What the form record holds outside `content`; needed to export a stored form. */
export type FormMeta = Pick<FormDefinition, 'slug' | 'name' | 'description' | 'settings'>;

/** Option, matrix row or matrix column as stored. */
export interface ResolvedChoice {
  id: string;
  key: string;
  name: string;
  /** zero-based position in the file */
  order: number;
  /** options only: stays last when its section shuffles options */
  anchored?: true;
}

export interface ResolvedLeafCondition {
  questionId: string;
  /** choice questions: option ids; other types: the value itself */
  equals?: Operand;
  notEquals?: Operand;
  in?: Operand[];
  gte?: number | string;
  lte?: number | string;
  answered?: boolean;
}
export type ResolvedCondition = Condition<ResolvedLeafCondition>;

export interface ResolvedQuestion {
  id: string;
  key: string;
  name: string;
  type: QuestionType;
  mandatory: boolean;
  description?: string;
  /** choice types only */
  options?: ResolvedChoice[];
  /** MATRIX only */
  rows?: ResolvedChoice[];
  columns?: ResolvedChoice[];
  /** NUMBER (optional), RANGE (required); STAR: max always set */
  min?: number;
  max?: number;
  /** NUMBER (optional); RANGE: always set */
  step?: number;
  visibleIf?: ResolvedCondition;
}

export interface ResolvedSection {
  id: string;
  key: string;
  name: string;
  description?: string;
  visibleIf?: ResolvedCondition;
  /** set only when true: each respondent sees the questions, or the options, in their own order */
  shuffleQuestions?: true;
  shuffleOptions?: true;
  questions: ResolvedQuestion[];
}

export interface ResolvedDim {
  key: string;
  kind: DimKind;
  source: DimSource;
  /** source "answer" only: the question whose answer gives the value */
  questionId?: string;
}

/** The form's invitation e-mail templates, stored as written. */
export type EmailDefinition = Static<typeof EmailSchema>;

/** The stored `content` of a form. */
export interface ResolvedForm {
  version: 1;
  dims: ResolvedDim[];
  sections: ResolvedSection[];
  email?: EmailDefinition;
  reminder?: EmailDefinition;
  /** the thank-you page's text (authoring key thankYou) */
  thankYou?: string;
  /** public-link hidden fields: each is also a dim { key, kind text, source link } in `dims` */
  hiddenFields?: string[];
  /** the form's texts in other languages, stored as written (keyed by keys; name and description included) */
  translations?: FormTranslations;
}

/** Answers keyed by question id. */
export type Answers = Record<string, unknown>;

export type Result<T> = { ok: true; value: T } | { ok: false; errors: FieldError[] };

/**
 * The order one respondent was shown, for the sections that shuffle (section id → question ids
 * in the order shown, and question id → option ids in the order shown); stored with the response.
 */
export type PresentedOrder = Record<string, { questions?: string[]; options?: Record<string, string[]> }>;
