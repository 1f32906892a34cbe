import type { Context } from '../../context.js';
import { demoLinks, type DemoLinks } from '../respondent/index.js';
import { demoBanner, ensureDemo, type DemoResult } from './seed-demo.js';

/**
 * The demo (created once) and what `npm start` and `quorum demo` print about it: the key when it was
 * just made, the API and docs addresses, and a public and a personal link to answer a form.
 */
export async function announceDemo(ctx: Context, options: { onProgress?: (line: string) => void } = {}): Promise<{ demo: DemoResult; links: DemoLinks; banner: string }> {
  const { publicApiUrl, publicFormUrl } = ctx.config;
  const origin = new URL(publicApiUrl).origin;
  const demo = await ensureDemo(ctx, options);
  const links = await demoLinks(ctx.db, ctx, { company: demo.company, urls: { origin, formUrl: publicFormUrl }, now: ctx.clock.now() });
  return { demo, links, banner: demoBanner(demo, { api: publicApiUrl, docs: `${origin}/docs` }, links) };
}
