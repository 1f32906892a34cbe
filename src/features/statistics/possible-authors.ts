import { counterOf, type Tally } from './tally.js';

/**
 * Possible authors of a cut (contract decisions, "Statistics and reports"). For public-link
 * forms they are the cut's responses, read from the same tally as the figures (one snapshot).
 * Not here: the invite source (non-revoked invites of the cut) and the class source (persons
 * enrolled in the cut's classes); their tables belong to the invites and rosters features and
 * join this function when they exist. Until then every form counts its responses.
 */
export function possibleAuthors(tally: Tally | undefined): number {
  return tally ? (counterOf(tally, '', '', 'responses')?.n ?? 0) : 0;
}
