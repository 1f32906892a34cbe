import { Type, type Static } from '@sinclair/typebox';

const Instant = Type.String({ format: 'date-time' });

/** A form as the panel's list shows it (list-form-summaries.ts). */
export const PanelFormSummary = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    slug: Type.String(),
    isPublic: Type.Boolean(),
    isClosed: Type.Boolean(),
    requiresInvite: Type.Boolean(),
    questionCount: Type.Integer(),
    responseCount: Type.Integer(),
    lastResponseAt: Type.Union([Instant, Type.Null()], { description: 'The newest response; null: none yet' }),
    createdAt: Instant,
    updatedAt: Instant,
  },
  { title: 'Form summary' },
);

export const ListFormsQuery = Type.Object(
  {
    search: Type.Optional(Type.String({ maxLength: 200, description: 'Part of the name or slug, any case' })),
    status: Type.Optional(Type.Union([Type.Literal('open'), Type.Literal('closed')])),
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000, default: 1 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  },
  { additionalProperties: false },
);
export type ListFormsQuery = Static<typeof ListFormsQuery>;

export const PageMeta = Type.Object({ page: Type.Integer(), limit: Type.Integer(), total: Type.Integer() });

export const CreateFormBody = Type.Object(
  {
    name: Type.String({ maxLength: 200 }),
    slug: Type.String({ maxLength: 63, description: 'The form\'s name in its public link (/f/<company>/<slug>); lower-case letters, digits and hyphens' }),
  },
  { additionalProperties: false },
);
export type CreateFormBody = Static<typeof CreateFormBody>;

/**
 * The authoring file (the format `quorum form import` reads, src/features/forms/README.md), checked
 * by the import's own validation in the service, so its field errors are the import's.
 */
const Definition = Type.Unknown({ description: 'The form definition file (JSON), ids included as an export writes them' });

/** The form as the builder edits it. */
export const PanelFormDetail = Type.Object(
  {
    form: PanelFormSummary,
    definition: Definition,
    publicUrl: Type.String({ description: 'The public link of the form (answers only while it is public and open)' }),
  },
  { title: 'Form for the builder' },
);

export const SaveFormBody = Type.Object(
  {
    definition: Definition,
    confirmRemovals: Type.Optional(Type.Boolean({ description: 'Needed to drop questions or options that responses answer (their answers stay stored)' })),
    dryRun: Type.Optional(Type.Boolean({ description: 'Check only: field errors as a 400, else the answered removals; nothing written' })),
  },
  { additionalProperties: false },
);
export type SaveFormBody = Static<typeof SaveFormBody>;

export const AnsweredRemoval = Type.Object({
  kind: Type.Union([Type.Literal('question'), Type.Literal('option'), Type.Literal('row'), Type.Literal('column')]),
  key: Type.String({ description: 'question key, or <question key>.<choice key>' }),
  name: Type.String(),
  responses: Type.Integer(),
});

export const SaveFormResult = Type.Object({
  status: Type.Union([Type.Literal('updated'), Type.Literal('unchanged'), Type.Literal('checked')], { description: 'checked: a dry run' }),
  answeredRemovals: Type.Array(AnsweredRemoval, { description: 'Answered questions and options this definition drops (a dry run lists them before the save)' }),
  detail: Type.Union([PanelFormDetail, Type.Null()], { description: 'The saved form; null on a dry run' }),
});

export const PanelFormVersion = Type.Object({
  version: Type.Integer(),
  actorEmail: Type.Union([Type.String(), Type.Null()], { description: 'Who saved it; null: an operator\'s CLI import' }),
  changes: Type.Object({ added: Type.Array(Type.String()), removed: Type.Array(Type.String()), changed: Type.Array(Type.String()) }),
  createdAt: Instant,
});
