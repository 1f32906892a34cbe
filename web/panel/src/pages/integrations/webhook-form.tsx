/**
 * The webhook form: a new subscription (URL, event types or all, a description) or an edit of one's
 * URL and event types (its secret, state and log are kept); server field errors beside their fields.
 */
import { Button, Group, MultiSelect, Stack, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { ApiProblem, applyFieldErrors, unwrap } from '../../api/errors';
import { fieldText, problemText } from '../../ui/problem-text';
import { eventTypesQuery, WEBHOOKS, type Webhook } from './integrations-api';
import { NAMESPACE } from './strings';
import { ProblemAlert } from '../../ui/problem-alert';

interface WebhookFields {
  url: string;
  types: string[];
  description: string;
}

const ALL = '*';
const FIELDS = ['url', 'types', 'description'] as const;

/** "types[2]" → "types": an item's error shows beside the list. */
const topField = (path: string) => path.replace(/\[\d+\]$/, '');

type Purpose = { onCreated: (webhook: Webhook, secret: string) => void; editing?: never } | { editing: Webhook; onSaved: () => void; onCreated?: never };

export function WebhookForm({ onCancel, ...purpose }: Purpose & { onCancel: () => void }) {
  const { t } = useTranslation(NAMESPACE);
  const { t: tc } = useTranslation();
  const queryClient = useQueryClient();
  const eventTypes = useQuery(eventTypesQuery);
  const [problem, setProblem] = useState<string | null>(null);
  const editing = purpose.editing;
  const form = useForm<WebhookFields>({ defaultValues: editing ? { url: editing.url, types: editing.types, description: editing.description } : { url: '', types: [ALL], description: '' } });
  const { errors } = form.formState;

  const save = useMutation({
    mutationFn: async ({ url, types, description }: WebhookFields) => {
      if (purpose.editing) {
        const saved = (await unwrap(api.PATCH('/webhooks/{id}', { params: { path: { id: purpose.editing.id } }, body: { url, types: types.length ? types : [ALL] } }))).data;
        purpose.onSaved();
        return saved;
      }
      const { subscription, secret } = (await unwrap(api.POST('/webhooks', { body: { url, ...(types.length ? { types } : {}), ...(description ? { description } : {}) } }))).data;
      // the secret goes straight to the shown-once dialog: never into the mutation's data (TanStack Query's cache)
      purpose.onCreated(subscription, secret);
      return subscription;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: WEBHOOKS }),
    onError: (error) => {
      setProblem(null);
      if (error instanceof ApiProblem && error.code === 'VALIDATION_ERROR') {
        const normalised = new ApiProblem(error.status, error.code, error.message, {
          fields: error.fields.map((field) => ({ ...field, path: topField(field.path) })),
        });
        const rest = applyFieldErrors(normalised, form.setError, FIELDS, (field) => fieldText(tc, field));
        if (rest.length === 0) return;
      }
      setProblem(problemText(tc, error));
    },
  });

  const options = (eventTypes.data ?? [ALL]).map((type) => ({ value: type, label: type === ALL ? t('webhooks.allTypes') : type }));

  return (
    <form onSubmit={(event) => void form.handleSubmit((fields) => save.mutate(fields))(event)} noValidate>
      <Stack>
        {problem && (
          <ProblemAlert>
            {problem}
          </ProblemAlert>
        )}
        <TextInput
          label={t('webhooks.url')}
          description={t('webhooks.urlHelp')}
          type="url"
          required
          data-autofocus
          placeholder="https://"
          error={errors.url?.message}
          {...form.register('url', { required: tc('field.required') })}
        />
        <Controller
          control={form.control}
          name="types"
          render={({ field }) => (
            <MultiSelect
              label={t('webhooks.types')}
              description={t('webhooks.typesHelp')}
              data={options}
              value={field.value}
              // Choosing "all" replaces the list; choosing a type while "all" is selected replaces "all".
              onChange={(next) => field.onChange(next.at(-1) === ALL ? [ALL] : next.filter((type) => type !== ALL))}
              searchable
              error={errors.types?.message}
            />
          )}
        />
        {!editing && <TextInput label={t('webhooks.description')} maxLength={500} error={errors.description?.message} {...form.register('description')} />}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            {t('cancel')}
          </Button>
          <Button type="submit" loading={save.isPending}>
            {editing ? t('webhooks.save') : t('webhooks.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
