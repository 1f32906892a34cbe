/**
 * Runnable: `BASE=http://localhost:3000 KEY=qk_... npx tsx packages/client/examples/quickstart.ts`
 * (the line `npm start` printed). Scans a form's responses, creates an invite and sends it safely.
 */
import { createQuorumClient, QuorumError } from '../src/index.js';

const client = createQuorumClient({ baseUrl: `${process.env.BASE ?? 'http://localhost:3000'}/v1`, apiKey: process.env.KEY ?? '' });

const me = await client.me();
console.log(`company ${me.company.name}, key ${me.apiKey.name}`);

const forms = await client.api.GET('/forms', { params: { query: { limit: 100 } } });
const form = forms.data?.data.find((f) => f.slug === 'term-evaluation') ?? forms.data?.data[0];
if (!form) throw new Error('no form');

let responses = 0;
for await (const response of client.responses(form.id, { include: 'answers' })) if (response.completedAt) responses += 1;
console.log(`${form.name}: ${responses} completed responses`);

try {
  const invite = await client.createInvite(form.id, { email: `quickstart-${Date.now()}@example.test`, name: 'Quickstart' });
  // A POST carries an Idempotency-Key its retries reuse: a lost answer never sends twice.
  const sent = await client.sendInvites(form.id, { channel: 'email', inviteIds: [invite.id] });
  console.log(`queued ${sent.queued}, skipped ${sent.skipped.length}; personal link ${invite.url}`);
} catch (err) {
  if (err instanceof QuorumError) console.error(`refused: ${err.code} (${err.message})`);
  else throw err;
}
