/**
 * The pages' favicon: a small SVG served beside the script under a content-hashed name (cached a
 * year), so browsers ask for it once instead of probing /favicon.ico on every visit.
 */
import { createHash } from 'node:crypto';

const BODY =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#1d4ed8"/><path d="M9 16.5l4.5 4.5L23 11" fill="none" stroke="#fff" stroke-width="3.5" stroke-linecap="round" stroke-linejoin="round"/></svg>';

export const ICON = { path: `/r/assets/icon.${createHash('sha256').update(BODY).digest('hex').slice(0, 16)}.svg`, body: BODY } as const;
