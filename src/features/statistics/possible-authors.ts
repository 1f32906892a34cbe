import { counterOf, type Tally } from './tally.js';

/** The responses a tally counts. */
export function responsesOf(tally: Tally | undefined): number {
  return tally ? (counterOf(tally, '', '', 'responses')?.n ?? 0) : 0;
}

/**
 * Possible authors of a cut (contract decisions, "Statistics and reports"): its invites or
 * enrolled persons (sourceAuthors), and never fewer than its responses, read from the same tally
 * as the figures (one snapshot). A public-link form has no other source: its responses.
 */
export function possibleAuthors(tally: Tally | undefined, sourced = 0): number {
  return Math.max(responsesOf(tally), sourced);
}
