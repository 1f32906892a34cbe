import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ok, successEnvelope } from '../../platform/app/envelope.js';
import { auditPanelAct } from '../../platform/app/panel/panel-audit.js';
import { panelErrorResponses } from '../../platform/app/panel/panel-envelope.js';
import type { DbOrTx } from '../../platform/db/database.js';
import { ApiError } from '../../lib/errors.js';
import { Nullable, OneOf, closed } from '../../lib/schema-pieces.js';
import { findWhatsappChannel, whatsappChannelView, WHATSAPP_PROVIDERS } from '../message-channels/index.js';
import { removeWhatsappChannel, setWhatsappChannel } from './set-whatsapp-channel.js';

const Settings = Type.Object(
  {
    phoneNumberId: Type.Optional(Type.String({ maxLength: 30, description: 'cloud-api: the sending phone number id' })),
    templates: Type.Optional(Type.Array(Type.String({ maxLength: 512 }), { maxItems: 50, description: 'cloud-api: approved template names' })),
    url: Type.Optional(Type.String({ maxLength: 2048, description: 'gateway: where messages are POSTed' })),
    text: Type.Optional(Type.String({ maxLength: 1000, description: 'gateway: the message text, with the invite variables' })),
  },
  closed,
);
// The token is write-only: the answer says only that one is set.
const Channel = Type.Object({ provider: OneOf(WHATSAPP_PROVIDERS), settings: Settings, tokenSet: Type.Literal(true) });
const ChannelAnswer = successEnvelope(Type.Object({ channel: Nullable(Channel) }));
const ChannelBody = Type.Object(
  {
    provider: OneOf(WHATSAPP_PROVIDERS),
    token: Type.Optional(Type.String({ maxLength: 4096, description: 'Write-only. Omitted: the token set is kept (same provider only).' })),
    settings: Settings,
  },
  closed,
);

/** The company's WhatsApp channel: the services of `quorum channel whatsapp`. */
export async function channelPanelRoutes(panel: FastifyInstance): Promise<void> {
  const { ctx } = panel;
  const audit = (request: FastifyRequest, tx: DbOrTx, details: Record<string, unknown>) => auditPanelAct(tx, ctx, { request, action: 'settings.changed', details: { section: 'whatsapp', ...details } });

  panel.get(
    '/settings/whatsapp',
    {
      config: { permission: 'settings' },
      schema: {
        operationId: 'getWhatsappChannel',
        summary: 'The WhatsApp channel (never its token)',
        tags: ['settings'],
        response: { 200: ChannelAnswer, ...panelErrorResponses() },
      },
    },
    async (request) => {
      const channel = await findWhatsappChannel(ctx.db, ctx, { companyId: request.panel.companyId });
      return ok({ channel: channel && whatsappChannelView(channel) });
    },
  );

  panel.put(
    '/settings/whatsapp',
    {
      config: { permission: 'settings' },
      schema: {
        operationId: 'setWhatsappChannel',
        summary: 'Set the WhatsApp channel',
        description: 'The token is sealed at rest and never answered. Audited as settings.changed with the settings changed and whether the token was replaced, never its value.',
        tags: ['settings'],
        body: ChannelBody,
        response: { 200: ChannelAnswer, ...panelErrorResponses() },
      },
    },
    async (request: FastifyRequest<{ Body: Static<typeof ChannelBody> }>) =>
      ok(
        await ctx.db.transaction(async (tx) => {
          const { channel, changes, tokenReplaced } = await setWhatsappChannel(tx, ctx, { companyId: request.panel.companyId, ...request.body });
          if (tokenReplaced || Object.keys(changes).length > 0) await audit(request, tx, { changes, tokenReplaced });
          return { channel };
        }),
      ),
  );

  panel.delete(
    '/settings/whatsapp',
    {
      config: { permission: 'settings' },
      schema: {
        operationId: 'removeWhatsappChannel',
        summary: 'Remove the WhatsApp channel',
        description: 'No WhatsApp channel: 404. Audited as settings.changed.',
        tags: ['settings'],
        response: { 200: ChannelAnswer, ...panelErrorResponses('NOT_FOUND') },
      },
    },
    async (request) =>
      ok(
        await ctx.db.transaction(async (tx) => {
          if (!(await removeWhatsappChannel(tx, ctx, { companyId: request.panel.companyId }))) throw new ApiError('NOT_FOUND', 'The company has no WhatsApp channel.');
          await audit(request, tx, { removed: true });
          return { channel: null };
        }),
      ),
  );
}
