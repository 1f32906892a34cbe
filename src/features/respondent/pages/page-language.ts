/**
 * The language of a respondent page when its form offers several (its own and each complete
 * translation): the person's choice from the page's language switch (`?lang=`, then kept in a
 * cookie scoped to the link, so sections, drafts, reloads and the thank-you page keep it), else
 * the Accept-Language among the offered ones, else the company's locale if offered, else the
 * form's own. A form with one language keeps the contract decisions' order (strings.ts).
 */
import type { FastifyRequest } from 'fastify';
import { formLanguages, type FormLanguage, type FormRecord } from '../../forms/index.js';
import { asPageLanguage, fromAcceptLanguage, LANGUAGE_NAMES, pageLanguage } from './strings.js';

export const LANGUAGE_COOKIE = 'quorum_lang';

/** One link of the switch: the same page in another language (the current one is not a link). */
export interface LanguageLink {
  lang: FormLanguage;
  name: string;
  href?: string;
}

export interface PageLanguage {
  lang: FormLanguage;
  /** the switch, when the form offers more than one language and the page has a link to switch on */
  links?: LanguageLink[];
  /** the language asked for by `?lang=`, to keep in the cookie for the link */
  remember?: FormLanguage;
}

/** What a page's language depends on besides the request: the form's languages and the company's. */
export interface LanguageOffer {
  /** the form's own language (settings.language; null when not set) */
  language: string | null;
  /** the languages the form offers (formLanguages); none without a form */
  offered: FormLanguage[];
  companyLocale: string | null | undefined;
}

export function languageOffer(form: FormRecord | null, companyLocale: string | null | undefined): LanguageOffer {
  return { language: form?.language ?? null, offered: form ? formLanguages(form) : [], companyLocale };
}

const among = (tag: unknown, offered: FormLanguage[]) => {
  const language = typeof tag === 'string' ? asPageLanguage(tag) : null;
  return language && offered.includes(language) ? language : null;
};

/**
 * `switchable`: the page belongs to a link the person can reload (a respondent page), so it shows
 * the switch and keeps the choice; the panel's preview and a link's refusals show no switch.
 */
export function choosePageLanguage(request: FastifyRequest, { language, offered, companyLocale }: LanguageOffer, switchable: boolean): PageLanguage {
  if (offered.length < 2) return { lang: pageLanguage(language, companyLocale, request.headers['accept-language']) };
  const asked = among((request.query as Record<string, unknown> | undefined)?.lang, offered);
  const kept = among(request.cookies?.[LANGUAGE_COOKIE], offered);
  const lang = asked ?? kept ?? fromAcceptLanguage(request.headers['accept-language'], offered) ?? among(companyLocale, offered) ?? offered[0];
  if (!switchable) return { lang };
  return { lang, links: switchLinks(request, offered, lang), remember: asked ?? undefined };
}

/** The page's own address with `lang` set, its other query (a public link's prefill, start, resume) kept. */
function switchLinks(request: FastifyRequest, offered: FormLanguage[], current: FormLanguage): LanguageLink[] {
  const url = new URL(request.url, 'http://page');
  // a POST answers with a page only when refused; its GET is the same address
  return offered.map((lang) => {
    if (lang === current) return { lang, name: LANGUAGE_NAMES[lang] };
    url.searchParams.set('lang', lang);
    return { lang, name: LANGUAGE_NAMES[lang], href: `${url.pathname}?${url.searchParams.toString()}` };
  });
}
