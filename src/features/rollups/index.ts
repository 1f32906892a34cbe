/**
 * How the statistics rollups (migrations 0520, 0540) are addressed: the cut a row counts, the day
 * and month rows a period reads, and the response count of a cut read from them. Below both
 * statistics (which writes and reads the rollups) and responses (whose scan counts from them), so
 * neither imports the other for it; it imports no feature.
 */
export { dimCutKey, ORG_CUT_KEY, WHOLE_FORM, type Cut } from './cut-keys.js';
export { rollupResponseCountSql, type CountedCut } from './rollup-response-count.js';
export { monthOf, spanCondition } from './rollup-spans.js';
