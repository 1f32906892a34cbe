import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ok, successEnvelope } from '../../platform/app/envelope.js';
import { auditPanelAct } from '../../platform/app/panel/panel-audit.js';
import { panelErrorResponses } from '../../platform/app/panel/panel-envelope.js';
import { OneOf, closed } from '../../lib/schema-pieces.js';
import type { DbOrTx } from '../../platform/db/database.js';
import { LOCALES, readCompanySettings, updateCompanySettings, type SettingsPatch } from './company-settings.js';
import { logoPath, MAX_LOGO_BYTES, removeCompanyLogo, setCompanyLogo } from './brand.js';
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
    brandColor: Type.Union([Type.String(), Type.Null()], { description: 'Accent of the respondent pages and e-mail, #RRGGBB, at least 4.5:1 against white (WCAG AA); null: the default blue' }),
    logo: Type.Union([Type.String(), Type.Null()], { description: 'The uploaded logo\'s file name (PUT /settings/logo); null: none' }),
    logoUrl: Type.Union([Type.String(), Type.Null()], { description: 'Where the respondent pages serve the logo (same origin as the pages)' }),
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
    brandColor: Type.Optional(NullableText(7)),
  },
  closed,
);

// base64 of at most MAX_LOGO_BYTES; the service checks the bytes themselves
const LogoBody = Type.Object({ image: Type.String({ minLength: 1, maxLength: Math.ceil(MAX_LOGO_BYTES / 3) * 4, description: `A PNG, JPEG or WebP image of at most ${MAX_LOGO_BYTES / 1024} KB, base64` }) }, closed);

const SettingsAnswer = { ...successEnvelope(CompanySettingsView), description: 'The company, its settings and this month’s message quota' };

/** Company settings in the panel: the same services as `quorum company show|set`. */
export async function companyPanelRoutes(panel: FastifyInstance): Promise<void> {
  const { ctx } = panel;
  const view = async (companyId: string) => {
    const shown = await showCompany(ctx.db, ctx, { companyId });
    const logoUrl = shown.settings.logo === null ? null : logoPath(companyId, shown.settings.logo);
    return { ...shown, settings: { ...shown.settings, logoUrl }, defaultMailFrom: ctx.config.mailFrom };
  };
  const auditLogo = (tx: DbOrTx, request: FastifyRequest, from: string | null, to: string | null) =>
    from === to ? Promise.resolve() : auditPanelAct(tx, ctx, { request, action: 'settings.changed', details: { section: 'logo', changes: { logo: { from, to } } } });

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

  panel.put(
    '/settings/logo',
    {
      config: { permission: 'settings' },
      bodyLimit: 256 * 1024,
      schema: {
        operationId: 'setCompanyLogo',
        summary: 'Upload the company’s logo',
        description: 'Shown on the respondent pages (served by Quorum, no request to another site) and in the invitation e-mail. PNG, JPEG or WebP, recognised by its bytes; at most 100 KB. Audited as settings.changed.',
        tags: ['settings'],
        body: LogoBody,
        response: { 200: SettingsAnswer, ...panelErrorResponses() },
      },
    },
    async (request: FastifyRequest<{ Body: Static<typeof LogoBody> }>) => {
      const { companyId } = request.panel;
      const bytes = Buffer.from(request.body.image, 'base64');
      await ctx.db.transaction(async (tx) => {
        const before = (await readCompanySettings(tx, ctx, { companyId })).logo;
        const { file } = await setCompanyLogo(tx, ctx, { companyId, bytes });
        await auditLogo(tx, request, before, file);
      });
      return ok(await view(companyId));
    },
  );

  panel.delete(
    '/settings/logo',
    {
      config: { permission: 'settings' },
      schema: {
        operationId: 'removeCompanyLogo',
        summary: 'Remove the company’s logo',
        tags: ['settings'],
        response: { 200: SettingsAnswer, ...panelErrorResponses() },
      },
    },
    async (request) => {
      const { companyId } = request.panel;
      await ctx.db.transaction(async (tx) => {
        const before = (await readCompanySettings(tx, ctx, { companyId })).logo;
        await removeCompanyLogo(tx, ctx, { companyId });
        await auditLogo(tx, request, before, null);
      });
      return ok(await view(companyId));
    },
  );
}
