import Mustache from 'mustache';
import { htmlEscaping } from '../../lib/html.js';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { spendAddressBudget } from '../../platform/app/address-budget.js';
import { suppress } from './suppressions.js';

// Server-rendered, no JavaScript: a confirm button that POSTs back to the same address. Every
// value goes through Mustache's HTML escaping ({{ }}); nothing is glued into the markup by hand.
const PAGE = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{title}}</title>
<style>body{font-family:system-ui,Arial,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#1f2933}
button{font-size:1rem;padding:.75rem 1.5rem;border:0;border-radius:4px;background:#1d4ed8;color:#fff;cursor:pointer}</style>
</head><body><main>
<h1>{{title}}</h1>
<p>{{message}}</p>
{{#confirm}}<form method="post" action="{{action}}"><button type="submit">Unsubscribe {{address}}</button></form>{{/confirm}}
</main></body></html>`;

interface PageView {
  title: string;
  message: string;
  confirm?: boolean;
  action?: string;
  address?: string;
}

const render = (view: PageView) => Mustache.render(PAGE, view, {}, htmlEscaping);

/** Largest body read from a one-click POST; its content is not used. */
const ONE_CLICK_BODY_LIMIT = 16 * 1024;

const NOT_FOUND: PageView = { title: 'Link not found', message: 'This unsubscribe link is not valid.' };
const TOO_MANY: PageView = { title: 'Too many attempts', message: 'Please wait a minute, then open the link again.' };

/**
 * The one-click unsubscribe page of every e-mail (List-Unsubscribe): GET shows a confirm button,
 * POST (the button, or a mail client's RFC 8058 one-click POST) adds the invite's e-mail address
 * to the company's suppression list with reason unsubscribed. Idempotent.
 */
export async function unsubscribeRoutes(app: FastifyInstance) {
  // Mail clients send the one-click POST as multipart/form-data or form-urlencoded
  // ("List-Unsubscribe=One-Click"), and RFC 8058 lets the sender ignore the body: the token in the
  // address is the whole request. So every body, of any type or none, is read and dropped.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: ONE_CLICK_BODY_LIMIT }, (_request, _body, done) => done(null, {}));
  const hidden = { hide: true };
  // The token is a credential: guessing at it spends the per-address budget of every respondent page.
  app.addHook('onRequest', async (request, reply) => {
    const decision = await spendAddressBudget(app, request, reply);
    if (decision.allowed) return;
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').header('retry-after', String(decision.resetSeconds));
    return reply.code(429).send(render(TOO_MANY));
  });

  async function findContact(token: string) {
    if (!/^[A-Za-z0-9_-]{43,100}$/.test(token)) return null;
    const { rows } = await app.ctx.db.execute<{ companyId: string; email: string | null }>(
      sql`SELECT company_id AS "companyId", email FROM invites WHERE token = ${token}`,
    );
    return rows[0]?.email ? (rows[0] as { companyId: string; email: string }) : null;
  }

  app.get<{ Params: { token: string } }>('/u/:token', { schema: hidden }, async (request, reply) => {
    const contact = await findContact(request.params.token);
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
    if (!contact) return reply.code(404).send(render(NOT_FOUND));
    return reply.send(
      render({ title: 'Unsubscribe', message: 'Stop receiving invitation e-mails at this address?', confirm: true, action: `/u/${request.params.token}`, address: contact.email }),
    );
  });

  app.post<{ Params: { token: string } }>('/u/:token', { schema: hidden }, async (request, reply) => {
    const contact = await findContact(request.params.token);
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
    if (!contact) return reply.code(404).send(render(NOT_FOUND));
    await suppress(app.ctx.db, app.ctx, { companyId: contact.companyId, addresses: [contact.email], reason: 'unsubscribed' });
    return reply.send(render({ title: 'Unsubscribed', message: `${contact.email} will receive no more invitation e-mails from this sender.` }));
  });
}
