/** The forms feature's public face: what other features may use (docs/CONTRIBUTING.md). */
export {
  RANGE_DEFAULT_STEP, STAR_DEFAULT_MAX, exportConditionOnForm, resolveConditionOnForm, storedFormConditionErrors,
  toPublicContent, type Answers, type ConditionDefinition, type DimKind, type PublicFormContent,
  type QuestionType, type ResolvedChoice, type ResolvedCondition, type ResolvedDim,
  translateForm, PIPE_REFERENCE, pipedDimKeys, readReference, type PipeReference, type PresentedOrder, type ResolvedForm, type ResolvedQuestion, type ResolvedSection,
} from './definition/index.js';
export { isRecord, optionShuffledQuestions, questionsOf } from './definition/tree.js';
export { FORM_LANGUAGES, type FormLanguage } from './definition/vocabulary.js';
export { findForm, findFormByIdOrSlug, findFormBySlug, formIsClosed, type FormRecord } from './find-form.js';
export { formLanguages } from './form-languages.js';
export { listForms } from './list-forms.js';
export { importForm } from './import-form.js';
export { previewForm } from './preview-form.js';
export { dropHidden, isAnswered, isVisible, validateAnswers, visibleQuestionIds } from './rules/index.js';
export { FormSection } from './schemas.js';
export { forms } from './table.js';
