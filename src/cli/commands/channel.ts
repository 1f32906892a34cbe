import type { Command } from 'commander';
import { WHATSAPP_PROVIDERS, type WhatsappProvider } from '../../features/message-channels/vocabulary.js';
import { CliError } from '../output.js';
import { companyIdForSlug, runCommand } from '../runtime.js';

export function registerChannelCommands(program: Command): void {
  const whatsapp = program.command('channel').description("a company's messaging channels").command('whatsapp').description('the WhatsApp channel');
  whatsapp
    .command('set')
    .description('set up the WhatsApp channel (Cloud API or a gateway); the token is sealed at rest')
    .requiredOption('--company <slug>', 'company slug')
    .requiredOption('--provider <provider>', WHATSAPP_PROVIDERS.join(' | '))
    .option('--token <token>', 'cloud-api: the access token; gateway: the bearer token (sealed at rest); omitted: keep the one set for the same provider')
    .option('--phone-number-id <id>', 'cloud-api: the sending phone number id')
    .option('--template <name...>', 'cloud-api: approved template names')
    .option('--url <url>', 'gateway: where messages are POSTed')
    .option('--text <template>', 'gateway: the message text, e.g. "{{formName}}: {{url}}"')
    .action(
      runCommand(async (rt, { opts }) => {
        if (!WHATSAPP_PROVIDERS.includes(opts.provider)) throw new CliError(`--provider must be one of ${WHATSAPP_PROVIDERS.join(', ')}`);
        const { setWhatsappChannel } = await import('../../features/messaging/set-whatsapp-channel.js');
        const companyId = await companyIdForSlug(rt, opts.company);
        const settings = { phoneNumberId: opts.phoneNumberId, templates: opts.template, url: opts.url, text: opts.text };
        const { channel } = await setWhatsappChannel(rt.ctx.db, rt.ctx, {
          companyId,
          provider: opts.provider as WhatsappProvider,
          token: opts.token as string | undefined,
          settings: Object.fromEntries(Object.entries(settings).filter(([, v]) => v !== undefined)),
        });
        return channel;
      }, (r) => `WhatsApp channel set (${r.provider})`),
    );
  whatsapp
    .command('show')
    .description('show the WhatsApp channel (never its token)')
    .requiredOption('--company <slug>', 'company slug')
    .action(
      runCommand(async (rt, { opts }) => {
        const { findWhatsappChannel, whatsappChannelView } = await import('../../features/message-channels/channel-settings.js');
        const channel = await findWhatsappChannel(rt.ctx.db, rt.ctx, { companyId: await companyIdForSlug(rt, opts.company) });
        // The token stays sealed: only whether one is set is shown.
        return channel ? whatsappChannelView(channel) : null;
      }, (r) => (r ? `provider: ${r.provider}\ntoken: set (sealed)\n${JSON.stringify(r.settings, null, 2)}` : 'no WhatsApp channel')),
    );
  whatsapp
    .command('remove')
    .description('remove the WhatsApp channel')
    .requiredOption('--company <slug>', 'company slug')
    .action(
      runCommand(async (rt, { opts }) => {
        const { removeWhatsappChannel } = await import('../../features/messaging/set-whatsapp-channel.js');
        if (!(await removeWhatsappChannel(rt.ctx.db, rt.ctx, { companyId: await companyIdForSlug(rt, opts.company) }))) throw new CliError('no WhatsApp channel to remove');
        return { removed: true };
      }, () => 'WhatsApp channel removed'),
    );
}
