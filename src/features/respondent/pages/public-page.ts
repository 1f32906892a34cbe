/**
 * A section of a form's public link as first shown, before any answer: the page the public link's
 * GET sends and the panel's preview shows, one rendering for both.
 */
import type { FastifyRequest } from 'fastify';
import { translateForm, type FormLanguage, type FormRecord } from '../../forms/index.js';
import { choosePageLanguage, languageOffer, type LanguageOffer, type PageLanguage } from './page-language.js';
import type { PageState } from './page-state.js';
import { renderSection, type SectionPage } from './render-section.js';
import { STRINGS, type PageStrings } from './strings.js';
import type { LayoutView } from './templates.js';

interface Company {
  name: string;
  slug?: string;
  locale: string | null;
  brand?: { color: string | null; logoUrl: string | null };
}

export interface PageContext {
  layout: LayoutView;
  strings: PageStrings;
  /** the form with its texts in the page's language (null: a page of no form) */
  form: FormRecord | null;
  /** a language the person just chose on the switch: kept in a cookie on this path */
  remember?: { lang: FormLanguage; path: string; secure: boolean };
}

export interface PageOptions {
  /** the page script's address */
  script?: string;
  /** the link's path (`/i/{token}`, `/f/{company}/{form}`): the page shows the language switch and keeps the choice there */
  link?: string;
  /** the cookie keeping the choice is Secure (the pages' public address is https) */
  secure?: boolean;
}

/** The page's language, its strings and layout, and the form in that language. */
export function pageContext(request: FastifyRequest, form: FormRecord | null, company: Company | null, options: PageOptions = {}): PageContext {
  const { language, remember } = chooseLanguage(request, languageOffer(form, company?.locale), options);
  const { lang } = language;
  const strings = STRINGS[lang];
  const translated = form && translateForm(form, lang);
  const brand = { logo: company?.brand?.logoUrl ?? undefined, accent: company?.brand?.color ?? undefined };
  const languages = language.links && { label: strings.languageSwitch, links: language.links };
  const layout = { lang, title: translated?.name ?? strings.notFoundTitle, company: company?.name, ...brand, script: options.script, languages };
  return { strings, layout, form: translated, remember };
}

/** The page's language, and the choice to keep in the link's cookie when `?lang=` asked for one. */
export function chooseLanguage(request: FastifyRequest, offer: LanguageOffer, options: PageOptions): { language: PageLanguage; remember?: PageContext['remember'] } {
  const language = choosePageLanguage(request, offer, options.link !== undefined);
  const remember = language.remember && options.link ? { lang: language.remember, path: options.link, secure: options.secure ?? false } : undefined;
  return { language, remember };
}

const PREVIEW_CHARS = 200;

/** A public link's preview card for chats and social sites: the form's name and the start of its description. */
export function withPreviewCard(context: PageContext, company: Company): PageContext {
  const text = (context.form?.description ?? '').replace(/\s+/g, ' ').trim();
  const description = text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS - 1).trimEnd()}…` : text;
  return { ...context, layout: { ...context.layout, og: { description, siteName: company.name, locale: context.layout.lang.replace('-', '_') } } };
}

export const publicPath = (p: { companySlug: string; formSlug: string }) => `/f/${encodeURIComponent(p.companySlug)}/${encodeURIComponent(p.formSlug)}`;

/** What a POST redirected the public link's GET to show again: the answers so far, the section's errors and fields as typed. */
export type KeptSection = Pick<PageState, 'answers' | 'errors' | 'typed' | 'carried'>;

export interface FreshSection {
  context: PageContext;
  form: FormRecord;
  companySlug: string;
  sectionIndex: number;
  /** the page's one-time submission token; the preview has none, so nothing it shows can be submitted */
  submissionToken?: string;
  /** the public link's step kept by its last POST; absent (the preview, a new page): nothing answered yet */
  kept?: KeptSection | null;
  /** a note above the section (a saved draft's resume link) */
  notice?: SectionPage['notice'];
  /** the visitor's order of shuffled sections; absent (the preview): the file's order */
  order?: SectionPage['order'];
  /** what the pipes read; absent (the preview): references shown as written */
  piping?: SectionPage['piping'];
}

/**
 * A public link's section: the panel's preview and the public link's GET both render through
 * here, so the page a form's author previews is the page its respondents get.
 */
export function renderFreshSection({ context, form, companySlug, sectionIndex, submissionToken, kept, notice, order, piping }: FreshSection): string {
  return renderSection({
    ...context,
    formName: form.name,
    content: form.content,
    answers: kept?.answers ?? {},
    sectionIndex,
    errors: kept?.errors ?? [],
    typed: kept?.typed,
    action: publicPath({ companySlug, formSlug: form.slug }),
    state: kept?.carried ?? {},
    submissionToken,
    // a page that can be submitted can be saved for later; the preview cannot be either
    saveLater: submissionToken !== undefined,
    notice,
    order,
    piping,
  });
}
