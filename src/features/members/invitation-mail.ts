import type { OutgoingMail } from '../../lib/providers.js';
import { htmlEscaping } from '../../lib/html.js';

const escape = htmlEscaping.escape;

/** The invitation e-mail: who invites, to which company, the link and how long it lasts. Every value escaped in the HTML part. */
export function invitationMail(input: { to: string; companyName: string; inviterName: string; link: string; expiresAt: Date }): Omit<OutgoingMail, 'from'> {
  const until = input.expiresAt.toISOString().slice(0, 16).replace('T', ' ');
  const lines = [
    `${input.inviterName} invites you to join ${input.companyName} on Quorum.`,
    '',
    'Open this link to accept (it works once, until ' + until + ' UTC):',
    input.link,
    '',
    'If you did not expect this invitation, ignore this e-mail.',
  ];
  return {
    to: input.to,
    subject: `Join ${input.companyName} on Quorum`,
    text: lines.join('\n'),
    html:
      `<p>${escape(input.inviterName)} invites you to join <strong>${escape(input.companyName)}</strong> on Quorum.</p>` +
      `<p><a href="${escape(input.link)}">Accept the invitation</a> (it works once, until ${escape(until)} UTC).</p>` +
      `<p>If you did not expect this invitation, ignore this e-mail.</p>`,
  };
}
