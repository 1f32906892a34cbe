/** The callbacks feature's public face: what other features may use (docs/CONTRIBUTING.md). */
export { bareMessageId } from './apply-receipt.js';
export { postmarkMetadataHeaders } from './postmark-receipts.js';
