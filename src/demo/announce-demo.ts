import type { Context } from '../platform/context.js';
import { demoLinks, type DemoLinks } from '../features/respondent/index.js';
import { demoPanelLines, ensureDemoOwner } from '../features/sessions/index.js';
import { demoBanner, ensureDemo, type DemoResult } from './seed-demo.js';

/**
 * The demo (created once) and what `npm start` and `quorum demo` print about it: the key when it was
 * just made, the API and docs addresses, a public and a personal link to answer a form, and the
 * panel's address with a one-time sign-in link for the demo owner when the owner was just made.
 */
export async function announceDemo(ctx: Context, options: { onProgress?: (line: string) => void } = {}): Promise<{ demo: DemoResult; links: DemoLinks; owner: { email: string; signInUrl: string | null }; banner: string }> {
  const { publicApiUrl, publicFormUrl } = ctx.config;
  const origin = new URL(publicApiUrl).origin;
  const demo = await ensureDemo(ctx, options);
  const links = await demoLinks(ctx.db, ctx, { company: demo.company, urls: { origin, formUrl: publicFormUrl }, now: ctx.clock.now() });
  const owner = await ensureDemoOwner(ctx.db, ctx, { companyId: demo.company.id });
  const panel = demoPanelLines(ctx.config.publicPanelUrl, owner);
  const banner = demoBanner(demo, { api: publicApiUrl, docs: `${origin}/docs` }, links);
  return { demo, links, owner, banner: demo.created ? `${banner}\n${panel.join('\n')}\n` : `${banner}\n${panel.map((line) => line.slice(2)).join('\n')}` };
}
