import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { ok, successEnvelope } from '../../../platform/app/envelope.js';
import type { ErrorCode } from '../../../lib/errors.js';
import type { Locale } from '../../companies/index.js';
import { loadPublicForm } from '../load-public-form.js';
import { openInvite } from '../open-invite.js';
import { saveDraft } from '../save-draft.js';
import { storeUpload } from '../store-upload.js';
import { submitInvite } from '../submit-invite.js';
import { issueSubmissionToken } from '../submission-token.js';
import { submitPublic } from '../submit-public.js';
import { MAX_UPLOAD_BYTES, UPLOAD_MIME_TYPES } from '../upload-type.js';
import { registerRespondentPlatform } from './plugin.js';
import {
  DraftBody,
  DraftSaved,
  FormParams,
  PublicFormView,
  PublicSubmitBody,
  PublicUploadQuery,
  respondentErrors,
  RespondentInvite,
  ResponseCreated,
  SubmitBody,
  TokenParams,
  UploadedFile,
  type DraftBodyType,
  type FormParamsType,
  type PublicSubmitBodyType,
  type PublicUploadQueryType,
  type SubmitBodyType,
  type TokenParamsType,
} from './schemas.js';
import { readOneFile } from './read-upload.js';

const TAGS = ['Respondent'];
// The published shape keeps locale a language: a company that sets none shows English, the
// language its pages end on when neither the form nor the respondent names one.
const companyView = ({ name, slug, locale }: { name: string; slug: string; locale: Locale | null }) => ({ name, slug, locale: locale ?? 'en' });

/**
 * The respondent JSON API under /r/v1 (contract decisions, "The respondent surface"): the
 * credential is the invite token in the path (no API key), or nothing on a public link. Same
 * envelope and x-request-id as /v1, strict input, rate limited per client address.
 */
export async function respondentApi(app: FastifyInstance) {
  await registerRespondentPlatform(app);

  app.get<{ Params: TokenParamsType }>(
    '/invites/:token',
    {
      schema: {
        operationId: 'getRespondentInvite',
        tags: TAGS,
        summary: 'Open a personal link',
        description:
          "The form, the respondent's name, the saved draft and whether the invite is still open or already answered " +
          '(status responded, 200). The first GET by a client that renders the form itself marks the invite opened (invite.opened, ' +
          'once); HEAD and link-preview fetchers (WhatsApp, facebookexternalhit, Slackbot, mail scanners, …) do not. Unknown token: 404 NOT_FOUND; revoked ' +
          'or expired: 410 INVITE_GONE; closed form: 410 FORM_CLOSED.',
        params: TokenParams,
        response: { 200: { ...successEnvelope(Type.Ref(RespondentInvite)), description: 'The personal link' }, ...respondentErrors('NOT_FOUND', 'INVITE_GONE', 'FORM_CLOSED') },
      },
    },
    async (request) => {
      const opened = await openInvite(app.ctx.db, app.ctx, {
        token: request.params.token,
        opener: { sign: request.method === 'HEAD' ? 'fetch' : 'person', userAgent: request.headers['user-agent'] },
      });
      return ok({
        form: opened.publicForm,
        company: companyView(opened.company),
        respondent: opened.respondent,
        draft: opened.draft ? { answers: opened.draft.answers, sectionIndex: opened.draft.sectionIndex, savedAt: opened.draft.savedAt.toISOString() } : null,
        status: opened.status,
        expiresAt: opened.invite.expiresAt?.toISOString() ?? null,
      });
    },
  );

  app.put<{ Params: TokenParamsType; Body: DraftBodyType }>(
    '/invites/:token/draft',
    {
      schema: {
        operationId: 'saveRespondentDraft',
        tags: TAGS,
        summary: 'Save the draft of a personal link (autosave)',
        description:
          'Replaces the one draft of the invite. Answers are checked against the form (unknown question ids, types and ' +
          'bounds; mandatory questions only at submit); answers to hidden questions are dropped. The first save holding an ' +
          'answer marks the invite started (invite.started, once). 409 ALREADY_RESPONDED after submit; 410 INVITE_GONE once ' +
          'revoked or expired, even on a page opened before.',
        params: TokenParams,
        body: DraftBody,
        response: {
          200: { ...successEnvelope(DraftSaved), description: 'Saved' },
          ...respondentErrors('NOT_FOUND', 'INVITE_GONE', 'FORM_CLOSED', 'ALREADY_RESPONDED', 'PAYLOAD_TOO_LARGE'),
        },
      },
    },
    async (request) => {
      const saved = await saveDraft(app.ctx.db, app.ctx, { token: request.params.token, ...request.body });
      return ok({ savedAt: saved.savedAt.toISOString() });
    },
  );

  app.post<{ Params: TokenParamsType; Body: SubmitBodyType }>(
    '/invites/:token/submit',
    {
      schema: {
        operationId: 'submitRespondentInvite',
        tags: TAGS,
        summary: 'Submit a personal link',
        description:
          'Creates the response (respondent and dims from the invite, never from the body), moves the invite to responded and ' +
          'emits invite.responded and response.created together. Answers to hidden questions are dropped; a hidden mandatory ' +
          'question is not required. One response per invite: a second submit is 409 ALREADY_RESPONDED.',
        params: TokenParams,
        body: SubmitBody,
        response: {
          201: { ...successEnvelope(ResponseCreated), description: 'The response was created' },
          ...respondentErrors('NOT_FOUND', 'INVITE_GONE', 'FORM_CLOSED', 'ALREADY_RESPONDED', 'PAYLOAD_TOO_LARGE'),
        },
      },
    },
    async (request, reply) => {
      const result = await submitInvite(app.ctx.db, app.ctx, { token: request.params.token, answers: request.body.answers });
      return reply.code(201).send(ok(result));
    },
  );

  const uploadSchema = (operationId: string, summary: string, params: typeof TokenParams | typeof FormParams, codes: ErrorCode[]) => ({
    bodyLimit: MAX_UPLOAD_BYTES + 64 * 1024,
    schema: {
      operationId,
      tags: TAGS,
      summary,
      description:
        `multipart/form-data with exactly one file part, at most ${MAX_UPLOAD_BYTES} bytes, of one of: ${UPLOAD_MIME_TYPES.join(', ')} ` +
        '(the content must match the type), to a form with a FILE question. The answer is the value to put in the FILE answer: ' +
        '`[{ fileId, name, size, mime }]`, accepted only by a submit of the same link. Files are kept privately and never served back through this API. ' +
        'Uploads are capped per client address and per form (files and bytes per hour: 429 RATE_LIMITED with retry-after) and by the ' +
        "organisation's storage quota (413 PAYLOAD_TOO_LARGE).",
      params,
      consumes: ['multipart/form-data'],
      response: { 201: { ...successEnvelope(Type.Ref(UploadedFile)), description: 'The stored file' }, ...respondentErrors('NOT_FOUND', 'PAYLOAD_TOO_LARGE', ...codes) },
    },
  });

  app.post<{ Params: TokenParamsType }>(
    '/invites/:token/files',
    uploadSchema('uploadRespondentFile', 'Upload a file for a FILE answer (personal link)', TokenParams, ['INVITE_GONE', 'FORM_CLOSED', 'ALREADY_RESPONDED']),
    async (request, reply) => {
      const file = await readOneFile(request);
      return reply.code(201).send(ok(await storeUpload(app.ctx.db, app.ctx, { token: request.params.token, source: request.ip, file })));
    },
  );

  const publicUpload = uploadSchema('uploadPublicFile', 'Upload a file for a FILE answer (public link)', FormParams, ['FORM_CLOSED', 'INVITE_REQUIRED']);
  app.post<{ Params: FormParamsType; Querystring: PublicUploadQueryType }>(
    '/forms/:companySlug/:formSlug/files',
    { ...publicUpload, schema: { ...publicUpload.schema, querystring: PublicUploadQuery } },
    async (request, reply) => {
      const file = await readOneFile(request);
      const form = { ...request.params, submissionToken: request.query.submissionToken };
      return reply.code(201).send(ok(await storeUpload(app.ctx.db, app.ctx, { form, source: request.ip, file })));
    },
  );

  app.get<{ Params: FormParamsType }>(
    '/forms/:companySlug/:formSlug',
    {
      schema: {
        operationId: 'getPublicForm',
        tags: TAGS,
        summary: 'Open a public link',
        description:
          'The form of /f/{companySlug}/{formSlug} with a fresh one-time submission token. Unknown pair: 404 NOT_FOUND; closed: ' +
          '410 FORM_CLOSED; a form that requires an invite or is not public: 403 INVITE_REQUIRED.',
        params: FormParams,
        response: { 200: { ...successEnvelope(Type.Ref(PublicFormView)), description: 'The public form' }, ...respondentErrors('NOT_FOUND', 'FORM_CLOSED', 'INVITE_REQUIRED') },
      },
    },
    async (request) => {
      const loaded = await loadPublicForm(app.ctx.db, app.ctx, request.params);
      const submission = issueSubmissionToken(app.ctx, { formId: loaded.form.id });
      return ok({
        form: loaded.publicForm,
        company: companyView(loaded.company),
        submissionToken: submission.token,
        submissionTokenExpiresAt: submission.expiresAt.toISOString(),
      });
    },
  );

  app.post<{ Params: FormParamsType; Body: PublicSubmitBodyType }>(
    '/forms/:companySlug/:formSlug/responses',
    {
      schema: {
        operationId: 'submitPublicForm',
        tags: TAGS,
        summary: 'Submit a public link',
        description:
          'Creates a response with inviteId null. respondent and dims are the prefill of the public link (name, email, phone, ' +
          'externalId, dim.<key>); only dims the form declares with source link may be set (an entity by id or code; a unit ' +
          'gives the org, orgSource link). Answers to hidden questions are dropped. Extension: with the optional submissionToken ' +
          'of GET /r/v1/forms/{companySlug}/{formSlug}, the submit happens once: a repeat (a double tap, a retry) stores nothing ' +
          "and answers 200 with the first response's id; an altered or expired token is 400 VALIDATION_ERROR.",
        params: FormParams,
        body: PublicSubmitBody,
        response: {
          200: { ...successEnvelope(ResponseCreated), description: 'The submission token had already submitted: the first response' },
          201: { ...successEnvelope(ResponseCreated), description: 'The response was created' },
          ...respondentErrors('NOT_FOUND', 'FORM_CLOSED', 'INVITE_REQUIRED', 'PAYLOAD_TOO_LARGE'),
        },
      },
    },
    async (request, reply) => {
      const { responseId, replayed } = await submitPublic(app.ctx.db, app.ctx, { ...request.params, ...request.body });
      return reply.code(replayed ? 200 : 201).send(ok({ responseId }));
    },
  );
}
