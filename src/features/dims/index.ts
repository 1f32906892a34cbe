/** The dims feature's public face: what other features may use (docs/CONTRIBUTING.md). */
export { canonicalDims, canonicalDimsResolved, dimEntityRefs, type DeclaredDim } from './canonical-dims.js';
export {
  MAX_TEXT_DIM_LENGTH, canonicalScalarDim, isIsoDate, isIsoDateTime, parseIsoDateTime, type ScalarDimKind,
} from './canonical.js';
