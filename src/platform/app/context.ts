/** The API's context is the one context (src/platform/context.ts); the name stays for the routes that import it. */
export type { Context as AppContext } from '../context.js';
