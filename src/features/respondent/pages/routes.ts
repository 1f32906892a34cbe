/**
 * The respondent pages: the personal link /i/{token} and the public link
 * /f/{companySlug}/{formSlug}, each a GET of the current section and a POST per section
 * (urlencoded, or multipart when the section asks for files), the thank-you pages, the page
 * script, and one status page per refusal with its own status code (404, 410, 403).
 * Post/Redirect/Get: a section POST, accepted or sent back with errors, answers 303 to the link's
 * GET, which shows what the POST decided (page-state.ts); Back, Forward and reload never resubmit.
 */
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { spendAddressBudget } from '../../../platform/app/address-budget.js';
import { ERROR_STATUS } from '../../../platform/app/error-status.js';
import { ApiError, type FieldError } from '../../../lib/errors.js';
import { fieldError } from '../../../lib/field-errors.js';
import type { Answers, ResolvedForm } from '../../forms/index.js';
import type { FormRecord } from '../../forms/index.js';
import { loadPublicForm } from '../load-public-form.js';
import { openInvite } from '../open-invite.js';
import { saveDraft } from '../save-draft.js';
import { storeUpload, type StoreUploadInput } from '../store-upload.js';
import { submitInvite } from '../submit-invite.js';
import { submitPublic } from '../submit-public.js';
import { resumePublicDraft } from '../resume-public-draft.js';
import { savePublicDraft } from '../save-public-draft.js';
import { issueSubmissionToken, readSubmissionToken, type LinkPrefill } from '../submission-token.js';
import { MAX_UPLOAD_BYTES } from '../upload-type.js';
import { currentSection, step, type FlowOutcome } from './form-flow.js';
import { readPost, type PostedSection } from './read-post.js';
import { fieldNames, readSectionAnswers } from './read-answers.js';
import { noDeps } from '../../../lib/service.js';
import { readCompanyLogo } from '../../companies/index.js';
import { dropPageState, hasPageState, keepPageState, readPageState, typedFields, type PageState } from './page-state.js';
import { renderSection } from './render-section.js';
import { scriptAsset } from './script-asset.js';
import { presentedOrder } from '../presented-order.js';
import { hiddenFieldValues } from '../hidden-fields.js';
import { pipingDims } from '../piping-dims.js';
import { chooseLanguage, pageContext, publicPath, renderFreshSection, withPreviewCard, type PageContext } from './public-page.js';
import { fill, STRINGS, type PageStrings } from './strings.js';
import { LANGUAGE_COOKIE } from './page-language.js';
import { ICON } from './icon-asset.js';
import { renderMessagePage, renderWelcomePage, styleSources, type LayoutView } from './templates.js';
import { PageCache, variantKey } from './page-cache.js';
import { invitePageVersion } from '../invite-page-version.js';
import { pipesEntities } from '../piping-dims.js';
import { languageOffer } from './page-language.js';

interface Company {
  name: string;
  locale: string | null;
}

const hidden = { hide: true };

/** How long the switch's choice is kept: as long as a public link's saved answers (resume links). */
const LANGUAGE_COOKIE_SECONDS = 30 * 24 * 60 * 60;

/**
 * The welcome screen: a form with a description opens on it, until the person starts (a GET with
 * start=1, carrying the link's own query) or has answers (a draft, or a step kept for the link).
 */
function welcomePage(context: PageContext, form: FormRecord, action: string, query: unknown, seenUrl?: string): string {
  const params = Object.entries((query ?? {}) as Record<string, unknown>).flatMap(([name, value]) => (name !== 'start' && typeof value === 'string' ? [{ name, value }] : []));
  const view = { formName: form.name, description: form.description ?? '', action, query: params, seenUrl, startLabel: context.strings.start };
  return renderWelcomePage(context.layout, view);
}

/** The thank-you page: the form's own text (thankYou in its definition) when it has one. */
const thanks = (context: PageContext): [string, string] => [context.strings.thanksTitle, context.form?.content.thankYou ?? context.strings.thanksText];

const started = (request: FastifyRequest) => (request.query as Record<string, unknown> | undefined)?.start !== undefined;

/**
 * Headers of every page: no framing, no referrer (the token is in the URL), no caching of answers;
 * and the language the person chose on the switch, kept for the link (page-language.ts).
 */
function pageHeaders(reply: FastifyReply, { layout, remember }: { layout: Pick<LayoutView, 'accent'>; remember?: PageContext['remember'] }): FastifyReply {
  if (remember) reply.setCookie(LANGUAGE_COOKIE, remember.lang, { path: remember.path, httpOnly: true, sameSite: 'lax', secure: remember.secure, maxAge: LANGUAGE_COOKIE_SECONDS });
  return reply
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .header('x-content-type-options', 'nosniff')
    .header(
      'content-security-policy',
      `default-src 'none'; style-src ${styleSources(layout)}; script-src 'self'; connect-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
    );
}

/** The refusals a link can meet, as pages; anything else is the service's own error. */
const REFUSALS: Partial<Record<ApiError['code'], { status: number; page: (s: PageStrings) => [string, string] }>> = {
  NOT_FOUND: { status: 404, page: (s) => [s.notFoundTitle, s.notFoundText] },
  INVITE_GONE: { status: 410, page: (s) => [s.goneTitle, s.goneText] },
  FORM_CLOSED: { status: 410, page: (s) => [s.closedTitle, s.closedText] },
  INVITE_REQUIRED: { status: 403, page: (s) => [s.inviteRequiredTitle, s.inviteRequiredText] },
  ALREADY_RESPONDED: { status: 200, page: (s) => [s.answeredTitle, s.answeredText] },
};

function sendMessage(reply: FastifyReply, context: PageContext, status: number, [heading, text]: [string, string]) {
  return pageHeaders(reply, context).code(status).send(renderMessagePage({ ...context.layout, title: heading }, heading, text));
}

function sendRefusal(request: FastifyRequest, reply: FastifyReply, error: unknown, form: FormRecord | null = null, company: Company | null = null) {
  const refusal = error instanceof ApiError ? REFUSALS[error.code] : undefined;
  if (!refusal) throw error;
  // an unknown link says nothing of the form or company it might have named
  const context = error instanceof ApiError && error.code === 'NOT_FOUND' ? pageContext(request, null, null) : pageContext(request, form, company);
  return sendMessage(reply, context, refusal.status, refusal.page(context.strings));
}

const isValidation = (error: unknown): error is ApiError => error instanceof ApiError && error.code === 'VALIDATION_ERROR';
const detailErrors = (error: ApiError) => ((error.details as { fields?: FieldError[] } | null)?.fields ?? []) as FieldError[];

/** An upload refused by a limit (per hour, or the storage quota) rather than by its content. */
const isLimit = (error: unknown): error is ApiError =>
  error instanceof ApiError && (error.code === 'RATE_LIMITED' || (error.code === 'PAYLOAD_TOO_LARGE' && error.details?.quotaBytes !== undefined));

/**
 * Stores a section's files and returns the FILE answers (kept files first) or the refusals; `limit`
 * is the first refusal by an upload limit, whose status (429, 413) and retry-after the page answers with.
 */
async function uploadFiles(app: FastifyInstance, target: Pick<StoreUploadInput, 'token' | 'form' | 'source'>, content: ResolvedForm, posted: PostedSection, previous: Answers) {
  const section = content.sections[posted.sectionIndex];
  const answers: Answers = {};
  const errors: FieldError[] = [];
  let limit: ApiError | null = null;
  for (const question of section.questions.filter((q) => q.type === 'FILE')) {
    const kept = Array.isArray(previous[question.id]) ? (previous[question.id] as unknown[]) : [];
    const stored: unknown[] = [];
    const path = `answers.${question.id}`;
    if (posted.tooLarge.has(question.id)) errors.push(fieldError(path, 'too_large', `Files are limited to ${MAX_UPLOAD_BYTES} bytes.`));
    for (const file of posted.files.filter((f) => f.questionId === question.id)) {
      try {
        stored.push(await storeUpload(app.ctx.db, app.ctx, { ...target, file }));
      } catch (error) {
        if (isLimit(error)) {
          limit ??= error;
          errors.push(fieldError(path, 'limit_reached', error.message));
        } else if (error instanceof ApiError && error.code === 'PAYLOAD_TOO_LARGE') errors.push(fieldError(path, 'too_large', error.message));
        else if (isValidation(error)) errors.push(fieldError(path, detailErrors(error)[0]?.code ?? 'invalid_value', error.message));
        else throw error;
      }
    }
    if (kept.length + stored.length > 0) answers[question.id] = [...kept, ...stored];
  }
  return { answers, errors, limit };
}

/** A section shown again with its errors: 422, or the status (and retry-after) of the upload limit that refused a file. */
const refusedStatus = (limit: ApiError | null) => (limit ? { status: ERROR_STATUS[limit.code], retryAfter: limit.headers['retry-after'] } : { status: 422 });

/** The status a kept state's GET answers with. */
function keptHeaders(reply: FastifyReply, context: PageContext, kept: PageState | null): FastifyReply {
  if (kept?.retryAfter) reply.header('retry-after', kept.retryAfter);
  return pageHeaders(reply, context).code(kept?.status ?? 200);
}

const seeOther = (reply: FastifyReply, location: string) => reply.code(303).header('location', location).send();

/** Memory for the personal links' pages already drawn (page-cache.ts): about 2,000 pages of 15 KB. */
const INVITE_PAGES_BYTES = 32 * 1024 * 1024;

/** How long a personal link's section sent back keeps its typed values for the GET (its draft stays). */
const INVITE_STATE_MS = 60 * 60 * 1000;

function flow(content: ResolvedForm, previous: Answers, posted: PostedSection, files: { answers: Answers; errors: FieldError[] }): FlowOutcome {
  const section = content.sections[posted.sectionIndex];
  const read = readSectionAnswers(section.questions, posted.values);
  return step({
    content,
    previous,
    sectionIndex: posted.sectionIndex,
    shown: posted.shown,
    posted: { ...read.answers, ...files.answers },
    readErrors: [...read.errors, ...files.errors],
    // saving for later checks nothing, as going back does (a personal link autosaves and has no save)
    action: posted.action === 'next' ? 'next' : 'back',
  });
}

export async function respondentPages(app: FastifyInstance) {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 256 * 1024 }, (_request, body, done) =>
    done(null, new URLSearchParams(body as string)),
  );
  await app.register(cookie);
  // Pages and the script compressed by the request's Accept-Encoding (br, else gzip): a respondent
  // on a phone network waits for bytes. Bodies under 1 KB (the icon, 204s) are not worth it.
  await app.register(compress, { encodings: ['br', 'gzip'], threshold: 1024 });
  // the page-state cookie is Secure when the pages' public address is https (behind a proxy too)
  const secure = new URL(app.ctx.config.publicFormUrl).protocol === 'https:';
  await app.register(multipart, { limits: { fileSize: MAX_UPLOAD_BYTES, files: 20, fields: 500, fieldSize: 64 * 1024, parts: 520 } });

  // Every page that carries a token (or mints one) spends the respondent API's per-address budget,
  // and says so as a page; only the static script and the companies' logos are free.
  app.addHook('onRequest', async (request, reply) => {
    if (request.routeOptions.url === '/r/assets/:name' || request.routeOptions.url === '/r/logos/:companyId/:file') return;
    const decision = await spendAddressBudget(app, request, reply);
    if (decision.allowed) return;
    const context = pageContext(request, null, null);
    reply.header('retry-after', String(decision.resetSeconds));
    return sendMessage(reply, context, 429, [context.strings.tooManyTitle, context.strings.tooManyText]);
  });

  app.get('/r/assets/:name', { schema: hidden }, async (request, reply) => {
    if (request.url === ICON.path) return reply.type('image/svg+xml').header('cache-control', 'public, max-age=31536000, immutable').header('x-content-type-options', 'nosniff').header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'").send(ICON.body);
    const script = await scriptAsset();
    if (request.url !== script.path) return sendMessage(reply, pageContext(request, null, null), 404, [STRINGS.en.notFoundTitle, STRINGS.en.notFoundText]);
    return reply.type('text/javascript; charset=utf-8').header('cache-control', 'public, max-age=31536000, immutable').header('x-content-type-options', 'nosniff').send(script.body);
  });

  // A company's logo, by the content-addressed name its settings hold: cached for good, and a new
  // logo is a new name. Served as an image only (nosniff, no script, no styles of its own).
  app.get<{ Params: { companyId: string; file: string } }>('/r/logos/:companyId/:file', { schema: hidden }, async (request, reply) => {
    const logo = await readCompanyLogo(app.ctx.db, noDeps, request.params);
    if (!logo) return sendMessage(reply, pageContext(request, null, null), 404, [STRINGS.en.notFoundTitle, STRINGS.en.notFoundText]);
    return reply
      .type(logo.contentType)
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; sandbox")
      .send(logo.bytes);
  });

  // ---- personal link -------------------------------------------------------------------------

  const invitePages = new PageCache(INVITE_PAGES_BYTES);

  /**
   * A personal link's page: kept once drawn (page-cache.ts), under the version its one query reads
   * first, so a change made while it is drawn leaves it under the older version (a miss next time).
   * Never kept: a section sent back (this browser's own state), a page naming entities (renamed
   * without a new version), the refusals and the answered page.
   */
  async function renderInvite(request: FastifyRequest<{ Params: { token: string } }>, reply: FastifyReply) {
    const { token } = request.params;
    const link = `/i/${token}`;
    const options = { script: (await scriptAsset()).path, link, secure };
    const version = hasPageState(request) ? null : await invitePageVersion(app.ctx.db, app.ctx, { token });
    const cached = version === null ? null : invitePages.find(token, version, app.ctx.clock.now().getTime());
    if (cached) {
      const { language, remember } = chooseLanguage(request, cached.kept.offer, options);
      const page = cached.page(variantKey(language.lang, request.url));
      if (page) return pageHeaders(reply, { layout: { accent: cached.kept.accent }, remember }).send(page);
    }
    const opened = await openInvite(app.ctx.db, app.ctx, {
      token,
      // a page fetched is not a page seen: scanners fetch it too (the script or the first POST opens it)
      opener: { sign: 'fetch' },
    });
    const context = pageContext(request, opened.form, opened.company, options);
    if (opened.status === 'responded') return sendMessage(reply, context, 200, [context.strings.answeredTitle, context.strings.answeredText]);
    const form = context.form ?? opened.form;
    const draft = opened.draft?.answers ?? {};
    const owner = { companyId: form.companyId, formId: form.id, link, secure };
    // a section sent back, unless the draft changed since (the page script autosaves)
    const stored = await readPageState(app.ctx.db, app.ctx, { request, owner });
    const kept = stored && stored.draftSavedAt === (opened.draft?.savedAt.toISOString() ?? null) ? stored : null;
    const seenUrl = opened.invite.openedAt === null ? `/i/${token}/seen` : undefined;
    const keep = (body: string) => {
      if (version === null || pipesEntities(form)) return body;
      const until = Math.min(...[opened.invite.expiresAt, form.closesAt].map((at) => at?.getTime() ?? Infinity));
      const meta = { offer: languageOffer(opened.form, opened.company.locale), accent: context.layout.accent, validUntil: until };
      invitePages.keep(token, version, meta, variantKey(context.layout.lang, request.url), body);
      return body;
    };
    if (!kept && !opened.draft && form.description && !started(request)) return pageHeaders(reply, context).send(keep(welcomePage(context, form, owner.link, {}, seenUrl)));
    const answers = kept?.answers ?? draft;
    const sectionIndex = currentSection(form.content, answers, kept?.sectionIndex ?? opened.draft?.sectionIndex ?? 0);
    const page = renderSection({
      ...context,
      formName: form.name,
      content: form.content,
      answers,
      sectionIndex,
      errors: kept?.errors ?? [],
      typed: kept?.typed,
      action: owner.link,
      draftUrl: `/r/v1/invites/${token}/draft`,
      seenUrl,
      state: kept?.carried ?? draft,
      order: presentedOrder(form.content, opened.invite.id),
      piping: { respondentName: opened.respondent.name, dims: await pipingDims(app.ctx.db, noDeps, { form, dims: opened.invite.dims }) },
    });
    return keptHeaders(reply, context, kept).send(keep(page));
  }

  app.get<{ Params: { token: string } }>('/i/:token', { schema: hidden }, async (request, reply) => {
    try {
      return await renderInvite(request, reply);
    } catch (error) {
      return sendRefusal(request, reply, error);
    }
  });

  // The page script's report that the page is visible and a person interacted with it: the open.
  app.post<{ Params: { token: string } }>('/i/:token/seen', { schema: hidden }, async (request, reply) => {
    try {
      await openInvite(app.ctx.db, app.ctx, { token: request.params.token, opener: { sign: 'person', userAgent: request.headers['user-agent'] } });
      return reply.code(204).send();
    } catch (error) {
      const refusal = error instanceof ApiError ? REFUSALS[error.code] : undefined;
      if (!refusal) throw error;
      return reply.code(refusal.status).send();
    }
  });

  app.post<{ Params: { token: string } }>('/i/:token', { schema: hidden }, async (request, reply) => {
    const { token } = request.params;
    let opened;
    try {
      opened = await openInvite(app.ctx.db, app.ctx, { token, opener: { sign: 'person', userAgent: request.headers['user-agent'] } });
    } catch (error) {
      return sendRefusal(request, reply, error);
    }
    const link = `/i/${token}`;
    const context = pageContext(request, opened.form, opened.company, { script: (await scriptAsset()).path, link, secure });
    const { company } = opened;
    const form = context.form ?? opened.form;
    if (opened.status === 'responded') return sendMessage(reply, context, 200, [context.strings.answeredTitle, context.strings.answeredText]);
    const previous = opened.draft?.answers ?? {};
    const posted = await readPost(request, form.content);
    const owner = { companyId: form.companyId, formId: form.id, link, secure };
    const now = app.ctx.clock.now();
    const expiresAt = new Date(now.getTime() + INVITE_STATE_MS);
    try {
      const files = await uploadFiles(app, { token, source: request.ip }, form.content, posted, previous);
      const outcome = flow(form.content, previous, posted, files);
      if (outcome.kind === 'errors') {
        const { savedAt } = await saveDraft(app.ctx.db, app.ctx, { token, answers: outcome.fitting, sectionIndex: outcome.sectionIndex });
        const kept = sentBack(form.content, posted, outcome, refusedStatus(files.limit));
        await keepPageState(app.ctx.db, app.ctx, { request, reply, owner, state: { ...kept, draftSavedAt: savedAt.toISOString() }, expiresAt });
        return seeOther(reply, owner.link);
      }
      if (outcome.kind === 'step') {
        await saveDraft(app.ctx.db, app.ctx, { token, answers: outcome.answers, sectionIndex: outcome.sectionIndex });
        await dropPageState(app.ctx.db, noDeps, { request, reply, owner });
        return seeOther(reply, owner.link);
      }
      try {
        await submitInvite(app.ctx.db, app.ctx, { token, answers: outcome.answers });
      } catch (error) {
        if (!isValidation(error)) throw error;
        const kept = refusedSubmit(form.content, outcome.answers, detailErrors(error), posted.sectionIndex);
        await keepPageState(app.ctx.db, app.ctx, { request, reply, owner, state: { ...kept, draftSavedAt: opened.draft?.savedAt.toISOString() ?? null }, expiresAt });
        return seeOther(reply, owner.link);
      }
      await dropPageState(app.ctx.db, noDeps, { request, reply, owner });
      return seeOther(reply, `${owner.link}/thanks`);
    } catch (error) {
      return sendRefusal(request, reply, error, form, company);
    }
  });

  app.get<{ Params: { token: string } }>('/i/:token/thanks', { schema: hidden }, async (request, reply) => {
    try {
      const opened = await openInvite(app.ctx.db, app.ctx, { token: request.params.token, opener: { sign: 'fetch' } });
      if (opened.status !== 'responded') return reply.code(303).header('location', `/i/${request.params.token}`).send();
      const context = pageContext(request, opened.form, opened.company, { link: `/i/${request.params.token}`, secure });
      return sendMessage(reply, context, 200, thanks(context));
    } catch (error) {
      return sendRefusal(request, reply, error);
    }
  });

  // ---- public link ---------------------------------------------------------------------------

  /**
   * A resume link (?resume=TOKEN): the saved answers on the saved section, in a new page with a new
   * submission token carrying the saving page's prefill; just after saving (saved=1) the page says
   * so and shows the link to keep. A link that no longer works starts the form afresh, saying so.
   */
  async function resume(reply: FastifyReply, context: PageContext, form: FormRecord, companySlug: string, asked: { token: string; saved: boolean }) {
    const draft = await resumePublicDraft(app.ctx.db, app.ctx, { form, token: asked.token });
    const { strings, layout } = context;
    if (!draft) {
      const page = issueSubmissionToken(app.ctx, { formId: form.id });
      const sectionIndex = currentSection(form.content, {}, 0);
      const seen = await respondentView(form, page);
      return pageHeaders(reply, context).send(renderFreshSection({ context, form, companySlug, sectionIndex, submissionToken: page.token, notice: { text: strings.resumeGone }, ...seen }));
    }
    const page = issueSubmissionToken(app.ctx, { formId: form.id, prefill: draft.prefill });
    const submissionToken = page.token;
    const sectionIndex = currentSection(form.content, draft.answers, draft.sectionIndex);
    const url = new URL(`${publicPath({ companySlug, formSlug: form.slug })}?resume=${asked.token}`, app.ctx.config.publicFormUrl).toString();
    const date = new Intl.DateTimeFormat(layout.lang, { dateStyle: 'long', timeZone: 'UTC' }).format(draft.expiresAt);
    const notice = asked.saved ? { text: fill(strings.savedNotice, { date }), url } : undefined;
    const kept = { answers: draft.answers, carried: draft.answers, errors: [] };
    const seen = await respondentView(form, page);
    return pageHeaders(reply, context).send(renderFreshSection({ context, form, companySlug, sectionIndex, submissionToken, kept, notice, ...seen }));
  }

  /** What a public page's visitor sees of the form: the order its token's nonce seeds, and the pipes its prefill fills. */
  async function respondentView(form: FormRecord, page: { nonce: string; prefill: LinkPrefill }) {
    const dims = await pipingDims(app.ctx.db, noDeps, { form, dims: page.prefill.dims });
    return { order: presentedOrder(form.content, page.nonce), piping: { respondentName: page.prefill.respondent?.name, dims } };
  }

  type PublicParams = { Params: { companySlug: string; formSlug: string } };

  // The link's prefill is sealed into the page's submission token here; the posts read it from the
  // token only, so a page posted from elsewhere can neither add a prefill nor change it.
  app.get<PublicParams>('/f/:companySlug/:formSlug', { schema: hidden }, async (request, reply) => {
    try {
      const loaded = await loadPublicForm(app.ctx.db, app.ctx, request.params);
      const { company } = loaded;
      const link = publicPath(request.params);
      const context = withPreviewCard(pageContext(request, loaded.form, company, { script: (await scriptAsset()).path, link, secure }), company);
      const form = context.form ?? loaded.form;
      const query = (request.query ?? {}) as Record<string, unknown>;
      if (typeof query.resume === 'string') return await resume(reply, context, form, company.slug, { token: query.resume, saved: query.saved !== undefined });
      // the step a POST redirected here to, while its page's token lasts; else a new page
      const kept = await readPageState(app.ctx.db, app.ctx, { request, owner: { companyId: form.companyId, formId: form.id, link, secure } });
      const keptToken = kept?.token ? readSubmissionToken(app.ctx, form.id, kept.token) : null;
      const live = kept && keptToken && !keptToken.expired ? { ...kept, token: keptToken.token } : null;
      if (!live && form.description && !started(request)) return pageHeaders(reply, context).send(welcomePage(context, form, link, request.query));
      // the page's token: its nonce also seeds the visitor's order of shuffled sections
      const page = live && keptToken ? keptToken : issueSubmissionToken(app.ctx, { formId: form.id, prefill: prefill(request.query, form.content.hiddenFields) });
      const sectionIndex = currentSection(form.content, live?.answers ?? {}, live?.sectionIndex ?? 0);
      const seen = await respondentView(form, page);
      return keptHeaders(reply, context, live).send(renderFreshSection({ context, form, companySlug: company.slug, sectionIndex, submissionToken: page.token, kept: live, ...seen }));
    } catch (error) {
      return sendRefusal(request, reply, error);
    }
  });

  app.post<PublicParams>('/f/:companySlug/:formSlug', { schema: hidden }, async (request, reply) => {
    let loaded;
    try {
      loaded = await loadPublicForm(app.ctx.db, app.ctx, request.params);
    } catch (error) {
      return sendRefusal(request, reply, error);
    }
    const { company } = loaded;
    const context = pageContext(request, loaded.form, company, { script: (await scriptAsset()).path, link: publicPath(request.params), secure });
    const form = context.form ?? loaded.form;
    const posted = await readPost(request, form.content);
    // Only a page this service rendered for this form, and recently, may post: no token, no answers.
    // A browser that says the post comes from another site is refused even with a token (fetched by that site).
    const token = posted.submissionToken === undefined ? null : readSubmissionToken(app.ctx, form.id, posted.submissionToken);
    if (!token || token.expired || request.headers['sec-fetch-site'] === 'cross-site') return sendMessage(reply, context, 403, [context.strings.staleTitle, context.strings.staleText]);
    const previous = posted.state;
    const link = publicPath(request.params);
    const owner = { companyId: form.companyId, formId: form.id, link, secure };
    const keep = (state: PageState) => keepPageState(app.ctx.db, app.ctx, { request, reply, owner, state: { ...state, token: token.token }, expiresAt: token.expiresAt });
    try {
      if (posted.action === 'save') {
        // the answers so far that fit their questions (the section unchecked, as going back; what does
        // not fit, an altered page's included, is left out; files too) behind a new resume link
        const { answers } = flow(form.content, previous, posted, { answers: {}, errors: [] });
        const saved = await savePublicDraft(app.ctx.db, app.ctx, { form, answers, sectionIndex: posted.sectionIndex, prefill: token.prefill });
        await dropPageState(app.ctx.db, noDeps, { request, reply, owner });
        return seeOther(reply, `${link}?resume=${saved.token}&saved=1`);
      }
      const target = { form: { ...request.params, submissionToken: token.token }, source: request.ip };
      const files = await uploadFiles(app, target, form.content, posted, previous);
      const outcome = flow(form.content, previous, posted, files);
      if (outcome.kind === 'errors') {
        await keep(sentBack(form.content, posted, outcome, refusedStatus(files.limit)));
        return seeOther(reply, link);
      }
      if (outcome.kind === 'step') {
        await keep({ sectionIndex: outcome.sectionIndex, errors: [], status: 200, answers: outcome.answers, carried: outcome.answers });
        return seeOther(reply, link);
      }
      try {
        // a replayed submit (a second tap) lands on the same thank-you page
        await submitPublic(app.ctx.db, app.ctx, { ...request.params, answers: outcome.answers, ...token.prefill, submissionToken: token.token });
      } catch (error) {
        if (!isValidation(error)) throw error;
        await keep(refusedSubmit(form.content, outcome.answers, detailErrors(error), posted.sectionIndex));
        return seeOther(reply, link);
      }
      await dropPageState(app.ctx.db, noDeps, { request, reply, owner });
      return seeOther(reply, `${link}/thanks`);
    } catch (error) {
      return sendRefusal(request, reply, error, form, company);
    }
  });

  app.get<PublicParams>('/f/:companySlug/:formSlug/thanks', { schema: hidden }, async (request, reply) => {
    try {
      const { form, company } = await loadPublicForm(app.ctx.db, app.ctx, request.params);
      const context = pageContext(request, form, company, { link: publicPath(request.params), secure });
      return sendMessage(reply, context, 200, thanks(context));
    } catch (error) {
      return sendRefusal(request, reply, error);
    }
  });
}

/** The public link's prefill: respondent fields, dim.<key> values and the form's hidden fields from the query. */
function prefill(query: unknown, hiddenFields: string[] | undefined): LinkPrefill {
  const params = (query ?? {}) as Record<string, unknown>;
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  const respondent = Object.fromEntries(['name', 'email', 'phone', 'externalId'].flatMap((key) => (text(params[key]) ? [[key, text(params[key]) as string]] : [])));
  const dims = { ...Object.fromEntries(Object.entries(params).flatMap(([key, value]) => (key.startsWith('dim.') && text(value) ? [[key.slice(4), value as string]] : []))), ...hiddenFieldValues(params, hiddenFields) };
  return { respondent: Object.keys(respondent).length > 0 ? respondent : undefined, dims: Object.keys(dims).length > 0 ? dims : undefined };
}

/** A section sent back with errors: the answers as posted, the draft-worthy ones carried, the fields as typed. */
function sentBack(content: ResolvedForm, posted: PostedSection, outcome: Extract<FlowOutcome, { kind: 'errors' }>, status: Pick<PageState, 'status' | 'retryAfter'>): PageState {
  const typed = typedFields(posted.values, fieldNames(content.sections[outcome.sectionIndex].questions));
  return { sectionIndex: outcome.sectionIndex, errors: outcome.errors, ...status, answers: outcome.answers, carried: outcome.fitting, typed };
}

/** A submit the final validation refused: shown on the section of its first error. */
function refusedSubmit(content: ResolvedForm, answers: Answers, errors: FieldError[], postedSection: number): PageState {
  return { sectionIndex: sectionOfError(content, answers, errors, postedSection), errors, status: 422, answers, carried: answers };
}

/** The section to show for a refused submit: the first one holding an error, else the posted one. */
function sectionOfError(content: ResolvedForm, answers: Answers, errors: FieldError[], fallback: number): number {
  const ids = new Set(errors.map((e) => /^answers\.([^.[]+)/.exec(e.path)?.[1]));
  const index = content.sections.findIndex((section) => section.questions.some((q) => ids.has(q.id)));
  return currentSection(content, answers, index === -1 ? fallback : index);
}
