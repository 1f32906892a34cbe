/**
 * Randomisation (section shuffleQuestions, shuffleOptions; option anchored): each respondent's own
 * order, derived from a seed (the invite's id; a public page's submission nonce) so a reload, a
 * draft or a section sent back shows the same order without storing anything until the response.
 * Each item's place is the SHA-256 of seed, scope and item id: a permutation only the seed decides,
 * unaffected by items added elsewhere in the form.
 */
import { createHash } from 'node:crypto';
import { optionShuffledQuestions, type PresentedOrder, type ResolvedChoice, type ResolvedForm, type ResolvedSection } from '../forms/index.js';

function shuffled<T extends { id: string }>(items: T[], seed: string, scope: string): T[] {
  const place = (id: string) => createHash('sha256').update(`${seed}\n${scope}\n${id}`).digest('hex');
  return items.map((item) => ({ item, place: place(item.id) })).sort((a, b) => (a.place < b.place ? -1 : a.place > b.place ? 1 : 0)).map(({ item }) => item);
}

/** Free options shuffled, anchored ones after them in the file's order. */
function shuffledOptions(options: ResolvedChoice[], seed: string, questionId: string): ResolvedChoice[] {
  return [...shuffled(options.filter((o) => !o.anchored), seed, questionId), ...options.filter((o) => o.anchored)];
}

/** The order this seed gives, for the sections that shuffle; null when none does. */
export function presentedOrder(content: ResolvedForm, seed: string): PresentedOrder | null {
  const order: PresentedOrder = {};
  for (const section of content.sections) {
    if (!section.shuffleQuestions && !section.shuffleOptions) continue;
    const entry: PresentedOrder[string] = {};
    if (section.shuffleQuestions) entry.questions = shuffled(section.questions, seed, section.id).map((q) => q.id);
    if (section.shuffleOptions) entry.options = Object.fromEntries(optionShuffledQuestions(section).map((q) => [q.id, shuffledOptions(q.options!, seed, q.id).map((o) => o.id)]));
    order[section.id] = entry;
  }
  return Object.keys(order).length > 0 ? order : null;
}

/** The section as this respondent sees it: questions and options in their order (ids and answers unchanged). */
export function orderedSection(section: ResolvedSection, order: PresentedOrder | null | undefined): ResolvedSection {
  const entry = order?.[section.id];
  if (!entry) return section;
  const byOrder = <T extends { id: string }>(items: T[], ids: string[] | undefined) =>
    ids ? [...items].sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id)) : items;
  const questions = byOrder(section.questions, entry.questions).map((q) => (q.options && entry.options?.[q.id] ? { ...q, options: byOrder(q.options, entry.options[q.id]) } : q));
  return { ...section, questions };
}
