import Mustache from 'mustache';
import type { FastifyInstance } from 'fastify';
import { htmlEscaping } from '../../lib/html.js';
import { isLoopbackClient } from '../../lib/loopback-client.js';
import { findDevMail, listDevMail } from './dev-mailbox.js';

/** Said on the list and on the refusal (static HTML, not a template value). */
const LOOPBACK_ONLY =
  'The mail of every company is here, personal invite links included, so these pages answer clients on this machine (loopback) only; <code>NODE_ENV=production</code> turns them off.';

const LIST = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Development mailbox</title>
<style>body{font-family:system-ui,Arial,sans-serif;margin:2rem}td,th{padding:.3rem .8rem;text-align:left}</style></head><body>
<h1>Development mailbox</h1><p>E-mail kept here because SMTP_URL is not set. Newest first.</p>
<p>${LOOPBACK_ONLY}</p>
{{^mails}}<p>No messages yet.</p>{{/mails}}
{{#mails.length}}<table><tr><th>When</th><th>To</th><th>Subject</th></tr>
{{#mails}}<tr><td>{{createdAt}}</td><td>{{to}}</td><td><a href="/dev/mail/{{id}}">{{subject}}</a></td></tr>{{/mails}}</table>{{/mails.length}}
</body></html>`;

// The message's own HTML is shown in a sandboxed iframe (srcdoc, escaped as an attribute): its
// markup cannot script this page.
const SHOW = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{{subject}}</title>
<style>body{font-family:system-ui,Arial,sans-serif;margin:2rem}iframe{width:100%;height:40rem;border:1px solid #ccc}pre{white-space:pre-wrap}</style></head><body>
<p><a href="/dev/mail">All messages</a></p>
<dl><dt>From</dt><dd>{{from}}</dd><dt>To</dt><dd>{{to}}</dd><dt>Subject</dt><dd>{{subject}}</dd><dt>Date</dt><dd>{{createdAt}}</dd>
{{#headerList}}<dt>{{name}}</dt><dd>{{value}}</dd>{{/headerList}}</dl>
<h2>HTML part</h2><iframe sandbox="" srcdoc="{{html}}" title="HTML part"></iframe>
<h2>Text part</h2><pre>{{text}}</pre></body></html>`;

const REFUSED = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Development mailbox</title></head><body>
<h1>Development mailbox</h1><p>${LOOPBACK_ONLY}</p><p>Open it on the server itself, or run <code>npx quorum mail list</code> there.</p></body></html>`;

/** /dev/mail: the development mailbox as pages (a list, each message rendered); never in production. */
export async function devMailRoutes(app: FastifyInstance) {
  if (app.ctx.config.production) return;
  // The server binds every address by default; a personal link read from here answers as the invitee.
  app.addHook('onRequest', async (request, reply) => {
    if (!isLoopbackClient(request)) return reply.code(403).type('text/html; charset=utf-8').send(REFUSED);
  });
  const hidden = { hide: true };
  app.get('/dev/mail', { schema: hidden }, async (_request, reply) =>
    reply.type('text/html; charset=utf-8').send(Mustache.render(LIST, { mails: await listDevMail(app.ctx.db, app.ctx, { limit: 100 }) }, {}, htmlEscaping)),
  );
  app.get<{ Params: { id: string } }>('/dev/mail/:id', { schema: hidden }, async (request, reply) => {
    const mail = await findDevMail(app.ctx.db, app.ctx, { id: request.params.id });
    reply.type('text/html; charset=utf-8');
    if (!mail) return reply.code(404).send('<!DOCTYPE html><title>Not found</title><p>No such message.</p>');
    const headerList = Object.entries(mail.headers).map(([name, value]) => ({ name, value }));
    return reply.send(Mustache.render(SHOW, { ...mail, headerList }, {}, htmlEscaping));
  });
}
