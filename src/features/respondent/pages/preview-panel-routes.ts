import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { ok, successEnvelope } from '../../../platform/app/envelope.js';
import { panelErrorResponses } from '../../../platform/app/panel/panel-envelope.js';
import { loadPreview } from '../load-preview.js';
import { currentSection } from './form-flow.js';
import { pageContext, renderFreshSection, withPreviewCard } from './public-page.js';
import { scriptAsset } from './script-asset.js';

const IdParams = Type.Object({ id: Type.String({ description: 'Form id' }) });
type IdParams = Static<typeof IdParams>;

const PreviewBody = Type.Object(
  {
    definition: Type.Unknown({ description: 'The builder\'s unsaved form definition file, checked like a save' }),
    sectionIndex: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000, description: 'The section to show (0-based; past the last: the last). Default: the first the conditions show' })),
  },
  { additionalProperties: false },
);
type PreviewBody = Static<typeof PreviewBody>;

const Preview = Type.Object(
  {
    html: Type.String({ description: 'The respondent page as the public link renders it, without a submission token: shown in a sandboxed frame, it can submit nothing' }),
    sectionIndex: Type.Integer({ description: 'The section shown' }),
    sections: Type.Array(Type.Object({ key: Type.String(), name: Type.String() }), { description: 'Every section of the previewed form, in order' }),
  },
  { title: 'Form preview' },
);

/**
 * The builder's live preview: the unsaved definition through the respondent pages' own renderer.
 * Nothing is stored; the page carries no submission token, so even posted it would be refused.
 */
export async function previewPanelRoutes(app: FastifyInstance) {
  const { ctx } = app;
  app.post<{ Params: IdParams; Body: PreviewBody }>(
    '/forms/:id/preview',
    {
      config: { permission: 'forms' },
      bodyLimit: 2 * 1024 * 1024,
      schema: {
        operationId: 'previewForm',
        tags: ['Forms'],
        summary: 'Render an unsaved definition as its respondent page (nothing is stored)',
        params: IdParams,
        body: PreviewBody,
        response: { 200: successEnvelope(Preview), ...panelErrorResponses('FORBIDDEN', 'NOT_FOUND', 'VALIDATION_ERROR') },
      },
    },
    async (request) => {
      const { form, company } = await loadPreview(ctx.db, ctx, { companyId: request.panel.companyId, id: request.params.id, definition: request.body.definition });
      const sections = form.content.sections;
      const asked = request.body.sectionIndex;
      const sectionIndex = asked === undefined ? currentSection(form.content, {}, 0) : Math.min(asked, sections.length - 1);
      // no link: the preview shows no language switch (its links would leave the panel)
      const context = withPreviewCard(pageContext(request, form, company, { script: (await scriptAsset()).path }), company);
      return ok({
        html: renderFreshSection({ context, form: context.form ?? form, companySlug: company.slug, sectionIndex }),
        sectionIndex,
        sections: sections.map((s) => ({ key: s.key, name: s.name })),
      });
    },
  );
}
