/**
 * Form definitions: the JSON authoring format (./schema.ts, checked by ./validate.ts), id
 * assignment into the stored form (./ids.ts), export back to the file (./export.ts) and the
 * public API shape (./public-shape.ts). Format and rules: ../README.md. Visibility and answer
 * validation live in ../rules, which browsers load too.
 */
export { CHOICE_TYPES, DIM_KINDS, QUESTION_TYPES, RANGE_DEFAULT_STEP, STAR_DEFAULT_MAX, type DimKind, type DimSource, type FormLanguage, type QuestionType } from './vocabulary.js';
export type * from './types.js';
export { storedFormConditionErrors, validateFormDefinition } from './validate.js';
export { assignIds, checkExplicitIds, resolveConditionOnForm, resolveFormDefinition } from './ids.js';
export { exportConditionOnForm, exportFormDefinition } from './export.js';
export { questionCount, toPublicContent, type PublicFormContent } from './public-shape.js';
export { PIPE_REFERENCE, pipedDimKeys, readReference, type PipeReference } from './piping.js';
export { missingTranslations, offeredLanguages, translateForm, type FormTexts } from './translate.js';
