import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ok, successEnvelope } from '../../platform/app/envelope.js';
import { auditPanelAct } from '../../platform/app/panel/panel-audit.js';
import { panelErrorResponses } from '../../platform/app/panel/panel-envelope.js';
import { OneOf, closed } from '../../lib/schema-pieces.js';
import { LOCALES, updateCompanySettings, type SettingsPatch } from './company-settings.js';
import { showCompany } from './show-company.js';

const CompanySettingsView = Type.Object({
  company: Type.Object({ id: Type.String(), name: Type.String(), slug: Type.String() }),
  settings: Type.Object({
    monthlyQuota: Type.Integer({ description: 'Messages per UTC month; set by the operator (quorum company set --monthly-quota), read-only here' }),
    anonymityFloor: Type.Integer({ description: 'Smallest cut a report on an anonymous form may show' }),
    timeZone: Type.String({ description: 'IANA time zone of working days and deadlines' }),
    defaultCountry: Type.String({ description: 'Country of phone numbers written without +' }),
    holidayCountry: Type.Union([Type.String(), Type.Null()], { description: 'Country whose public holidays deadlines skip; null: none' }),
    locale: Type.Union([OneOf(LOCALES), Type.Null()], { description: 'Language of messages and pages after the form\'s and the respondent\'s own; null (a new company\'s): not set, English last' }),
    mailFrom: Type.Union([Type.String(), Type.Null()], { description: 'Invitation sender, "Name <address>"; on another domain than the deployment\'s it becomes Reply-To (docs/contract.md); null: the company name on the deployment\'s address' }),
  }),
  quota: Type.Object({
    limit: Type.Integer(),
    used: Type.Integer({ description: 'Messages sent this month' }),
    reserved: Type.Integer({ description: 'Messages queued this month, not yet sent' }),
    period: Type.String({ description: 'YYYY-MM (UTC)' }),
  }),
  defaultMailFrom: Type.String({ description: "The deployment's sender, used while mailFrom is null" }),
});

// Null first: with the input coercion of the platform, a string branch first would turn null into "".
const NullableText = (maxLength: number) => Type.Union([Type.Null(), Type.String({ maxLength })]);

// Types and bounds only: the service owns the rules (one message vocabulary with the CLI). No
// monthlyQuota: it is the operator's cap on what a company sends (`quorum company set
// --monthly-quota`); a company that could raise its own cap would have none.
const SettingsBody = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 200 })),
    anonymityFloor: Type.Optional(Type.Integer()),
    timeZone: Type.Optional(Type.String({ maxLength: 100 })),
    defaultCountry: Type.Optional(Type.String({ maxLength: 2 })),
    holidayCountry: Type.Optional(NullableText(2)),
    locale: Type.Optional(Type.Union([Type.Null(), OneOf(LOCALES)])),
    mailFrom: Type.Optional(NullableText(420)),
  },
  closed,
);

const SettingsAnswer = { ...successEnvelope(CompanySettingsView), description: 'The company, its settings and this month’s message quota' };

/** Company settings in the panel: the same services as `quorum company show|set`. */
export async function companyPanelRoutes(panel: FastifyInstance): Promise<void> {
  const { ctx } = panel;
  const view = async (companyId: string) => ({ ...(await showCompany(ctx.db, ctx, { companyId })), defaultMailFrom: ctx.config.mailFrom });

  panel.get(
    '/settings',
    {
      config: { permission: 'settings' },
      schema: {
        operationId: 'getCompanySettings',
        summary: 'The company’s settings and this month’s quota',
        tags: ['settings'],
        response: { 200: SettingsAnswer, ...panelErrorResponses() },
      },
    },
    async (request) => ok(await view(request.panel.companyId)),
  );

  panel.patch(
    '/settings',
    {
      config: { permission: 'settings' },
      schema: {
        operationId: 'updateCompanySettings',
        summary: 'Change the company’s name and settings',
        description: 'Only the fields given change. The monthly quota is not among them: the operator sets it (an unknown field is 400). A new time zone or holiday country moves the deadlines of open follow-up steps. Audited as settings.changed with what changed.',
        tags: ['settings'],
        body: SettingsBody,
        response: { 200: SettingsAnswer, ...panelErrorResponses() },
      },
    },
    async (request: FastifyRequest<{ Body: Static<typeof SettingsBody> }>) => {
      const { companyId } = request.panel;
      const { name, ...patch } = request.body;
      await ctx.db.transaction(async (tx) => {
        const { changes } = await updateCompanySettings(tx, ctx, { companyId, name, patch: patch as SettingsPatch });
        if (Object.keys(changes).length === 0) return;
        await auditPanelAct(tx, ctx, { request, action: 'settings.changed', details: { section: 'company', changes } });
      });
      return ok(await view(companyId));
    },
  );
}
