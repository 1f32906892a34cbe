/** A slice a response belongs to: the whole form, a dim value, an org unit's subtree. */
export interface Cut {
  key: string;
  value: string;
}

/** How a rollup row names its cut (cut_key, cut_value). */
export const WHOLE_FORM: Cut = { key: '', value: '' };
export const ORG_CUT_KEY = 'org';
export const dimCutKey = (dim: string) => `dim:${dim}`;
