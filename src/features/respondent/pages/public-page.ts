/**
 * A section of a form's public link as first shown, before any answer: the page the public link's
 * GET sends and the panel's preview shows, one rendering for both.
 */
import type { FastifyRequest } from 'fastify';
import type { FormRecord } from '../../forms/index.js';
import { renderSection } from './render-section.js';
import { pageLanguage, STRINGS, type PageStrings } from './strings.js';
import type { LayoutView } from './templates.js';

interface Company {
  name: string;
  slug?: string;
  locale: string | null;
}

export interface PageContext {
  layout: LayoutView;
  strings: PageStrings;
}

export function pageContext(request: FastifyRequest, form: FormRecord | null, company: Company | null, script?: string): PageContext {
  const lang = pageLanguage(form?.language, company?.locale, request.headers['accept-language']);
  const strings = STRINGS[lang];
  return { strings, layout: { lang, title: form?.name ?? strings.notFoundTitle, company: company?.name, script } };
}

const PREVIEW_CHARS = 200;

/** A public link's preview card for chats and social sites: the form's name and the start of its description. */
export function withPreviewCard(context: PageContext, form: FormRecord, company: Company): PageContext {
  const text = (form.description ?? '').replace(/\s+/g, ' ').trim();
  const description = text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS - 1).trimEnd()}…` : text;
  return { ...context, layout: { ...context.layout, og: { description, siteName: company.name, locale: context.layout.lang.replace('-', '_') } } };
}

export const publicPath = (p: { companySlug: string; formSlug: string }) => `/f/${encodeURIComponent(p.companySlug)}/${encodeURIComponent(p.formSlug)}`;

export interface FreshSection {
  context: PageContext;
  form: FormRecord;
  companySlug: string;
  sectionIndex: number;
  /** the page's one-time submission token; the preview has none, so nothing it shows can be submitted */
  submissionToken?: string;
}

export function renderFreshSection({ context, form, companySlug, sectionIndex, submissionToken }: FreshSection): string {
  return renderSection({
    ...context,
    formName: form.name,
    content: form.content,
    answers: {},
    sectionIndex,
    errors: [],
    action: publicPath({ companySlug, formSlug: form.slug }),
    state: {},
    submissionToken,
  });
}
