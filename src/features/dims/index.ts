/** The dims feature's public face: what other features may use (docs/CONTRIBUTING.md). */
export { canonicalDims, canonicalDimsResolved, dimEntityRefs, type DeclaredDim } from './canonical-dims.js';
export {
  canonicalScalarDim, isIsoDate, isIsoDateTime, parseIsoDateTime, type ScalarDimKind,
} from './canonical.js';
