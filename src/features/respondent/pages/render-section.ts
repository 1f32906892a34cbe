/** The whole form page for one section: layout, step, error summary and the section's questions. */
import type { FieldError } from '../../../lib/errors.js';
import type { Answers, FormLanguage, PresentedOrder, ResolvedForm } from '../../forms/index.js';
import { visibleQuestionIds } from '../../forms/index.js';
import { orderedSection } from '../presented-order.js';
import { progress, visibleSections } from './form-flow.js';
import { pipedSection, type PipingValues } from './pipe-texts.js';
import { errorsByQuestion, scriptRules, sectionQuestions, type TypedFields } from './section-view.js';
import { fill, type PageStrings } from './strings.js';
import { renderFormPage, type LayoutView } from './templates.js';

export interface SectionPage {
  layout: LayoutView;
  strings: PageStrings;
  formName: string;
  content: ResolvedForm;
  answers: Answers;
  sectionIndex: number;
  errors: FieldError[];
  /** a section sent back: its fields as typed */
  typed?: TypedFields;
  /** where the section posts (path and the prefill query) */
  action: string;
  /** personal link: the autosave address of the page script */
  draftUrl?: string;
  /** personal link not yet opened: where the page script reports the page seen by a person */
  seenUrl?: string;
  /**
   * The answers so far, carried in the page: the public link posts them back (it has no draft);
   * on both links the script evaluates conditions on earlier sections and autosaves them whole.
   */
  state?: Answers;
  /** public link: the page's one-time submission token (its prefill, its uploads, its one response) */
  submissionToken?: string;
  /** the respondent's own order of the sections that shuffle (presented-order.ts); absent: the file's order */
  order?: PresentedOrder | null;
  /** what `{{respondent.name}}` and `{{dims.key}}` read as (answers come from `answers`); absent: references shown as written */
  piping?: PipingValues;
  /** public link: offers "save and continue later" (a resume link) */
  saveLater?: boolean;
  /** a note above the section: the answers saved (with the resume link), or a resume link that no longer works */
  notice?: { text: string; url?: string };
}

export function renderSection(page: SectionPage): string {
  const { content, answers, sectionIndex, strings: s } = page;
  const ordered = orderedSection(content.sections[sectionIndex], page.order);
  // without piping values (the panel's preview) the references show as written, for the author to read
  const section = page.piping ? pipedSection(ordered, { ...page.piping, content, answers, lang: page.layout.lang as FormLanguage, strings: s }) : ordered;
  const visible = visibleQuestionIds(content, answers);
  const fileQuestions = new Set(section.questions.filter((q) => q.type === 'FILE').map((q) => q.id));
  const messages = errorsByQuestion(page.errors, s, fileQuestions);
  const questions = sectionQuestions(section, answers, visible, messages, s, page.typed).map((q) => ({ ...q, required: s.required, filesKept: s.filesKept }));
  const steps = visibleSections(content, answers);
  const position = steps.indexOf(sectionIndex);
  const isLast = position === steps.length - 1;
  const done = progress(content, answers, sectionIndex);
  return renderFormPage(page.layout, {
    formName: page.formName,
    stepText: fill(s.step, { n: done.n, total: done.total }),
    percent: String(done.percent),
    errorSummary: s.errorSummary,
    errorList: questions.filter((q) => q.error && !q.hidden).map((q) => ({ anchor: q.inputId, label: `${q.name} — ${q.error}` })),
    action: page.action,
    enctype: fileQuestions.size > 0 ? 'multipart/form-data' : 'application/x-www-form-urlencoded',
    draftUrl: page.draftUrl,
    seenUrl: page.seenUrl,
    sectionIndex,
    rules: JSON.stringify(scriptRules(content)),
    messages: JSON.stringify({ errors: s.errors, saved: s.saved, saveFailed: s.saveFailed, offline: s.offline, zoneNote: s.zoneNote }),
    sectionName: section.name,
    sectionDescription: section.description,
    hasRequired: section.questions.some((q) => q.mandatory),
    requiredNote: s.requiredNote,
    shown: questions.filter((q) => !q.hidden).map((q) => q.id).join(','),
    state: page.state ? JSON.stringify(page.state) : undefined,
    submissionToken: page.submissionToken,
    questions,
    nextLabel: isLast ? s.submit : s.next,
    back: s.back,
    canBack: position > 0,
    saveLater: page.saveLater ? s.saveLater : undefined,
    notice: page.notice,
  });
}
