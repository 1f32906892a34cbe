/**
 * Piping on the pages: the `{{answer.q}}`, `{{respondent.name}}` and `{{dims.key}}` references of a
 * section's texts filled in on the server, so it works without JavaScript. Values are plain text:
 * the page template escapes them like every other text. An answer reads in the page's language
 * (option names, yes/no, numbers and dates as that language writes them); a reference with no
 * value yet (an optional question left blank, a link without that dim) reads as nothing.
 */
import type { Answers, FormLanguage, ResolvedForm, ResolvedQuestion, ResolvedSection } from '../../forms/index.js';
import { PIPE_REFERENCE, questionsOf, readReference } from '../../forms/index.js';
import type { PageStrings } from './strings.js';

export interface PipingValues {
  respondentName?: string | null;
  /** dim key → what the respondent reads: an entity's name, else the value */
  dims?: Record<string, string>;
}

interface PipeContext extends PipingValues {
  content: ResolvedForm;
  answers: Answers;
  lang: FormLanguage;
  strings: Pick<PageStrings, 'yes' | 'no'>;
}

const optionName = (question: ResolvedQuestion, id: unknown) => question.options?.find((option) => option.id === id)?.name ?? '';

/** An answer as a phrase of the page's language. */
function answerText(question: ResolvedQuestion, answer: unknown, context: PipeContext): string {
  if (answer === undefined || answer === null) return '';
  switch (question.type) {
    case 'RADIO':
    case 'SELECT':
      return optionName(question, answer);
    case 'CHECKBOX':
      return new Intl.ListFormat(context.lang, { type: 'conjunction' }).format((answer as unknown[]).map((id) => optionName(question, id)));
    case 'RANKING':
      return (answer as unknown[]).map((id) => optionName(question, id)).join(', ');
    case 'BOOLEAN':
      return answer === true ? context.strings.yes : context.strings.no;
    case 'NUMBER':
    case 'RANGE':
    case 'NPS':
    case 'STAR':
      return new Intl.NumberFormat(context.lang).format(answer as number);
    case 'DATE':
      return new Intl.DateTimeFormat(context.lang, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(`${String(answer)}T00:00:00Z`));
    case 'FILE':
      return (answer as { name?: string }[]).map((file) => file.name ?? '').join(', ');
    case 'MATRIX':
      return ''; // refused when the definition is saved (piping.ts)
    default:
      return String(answer);
  }
}

function pipe(text: string, context: PipeContext, questionsByKey: Map<string, ResolvedQuestion>): string {
  return text.replace(PIPE_REFERENCE, (_whole, inner: string) => {
    const reference = readReference(inner);
    if (reference.kind === 'respondent') return context.respondentName ?? '';
    if (reference.kind === 'dim') return context.dims?.[reference.key] ?? '';
    if (reference.kind === 'answer') {
      const question = questionsByKey.get(reference.key);
      return question ? answerText(question, context.answers[question.id], context) : '';
    }
    return '';
  });
}

/** The section with its name, description and questions' names and descriptions piped. */
export function pipedSection(section: ResolvedSection, context: PipeContext): ResolvedSection {
  const questionsByKey = new Map(questionsOf(context.content).map((question) => [question.key, question]));
  const piped = (text: string | undefined) => (text === undefined || !text.includes('{{') ? text : pipe(text, context, questionsByKey));
  return {
    ...section,
    name: piped(section.name)!,
    description: piped(section.description),
    questions: section.questions.map((question) => ({ ...question, name: piped(question.name)!, description: piped(question.description) })),
  };
}
