import { MAX_TEXT_DIM_LENGTH } from '../dims/index.js';

/**
 * The public link's hidden fields (the definition's `hiddenFields`): query parameters by those
 * names, sealed into the page's submission token with the prefill and stored as text dims. Other
 * parameters are ignored. A value is trimmed and cut to the text dims' 200 characters (a campaign
 * tag too long for a dim should not turn the visitor away); a blank or repeated one is left out.
 */
export function hiddenFieldValues(query: Record<string, unknown>, names: readonly string[] | undefined): Record<string, string> {
  return Object.fromEntries(
    (names ?? []).flatMap((name) => {
      const value = Object.hasOwn(query, name) ? query[name] : undefined;
      if (typeof value !== 'string' || value.trim() === '') return [];
      return [[name, [...value.trim()].slice(0, MAX_TEXT_DIM_LENGTH).join('')]];
    }),
  );
}
