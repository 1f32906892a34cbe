/** The new-webhook form: URL, event types (or all) and a description; server field errors beside their fields. */
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

export function CreateWebhookForm({ onCreated, onCancel }: { onCreated: (webhook: Webhook, secret: string) => void; onCancel: () => void }) {
  const { t } = useTranslation(NAMESPACE);
  const { t: tc } = useTranslation();
  const queryClient = useQueryClient();
  const eventTypes = useQuery(eventTypesQuery);
  const [problem, setProblem] = useState<string | null>(null);
  const form = useForm<WebhookFields>({ defaultValues: { url: '', types: [ALL], description: '' } });
  const { errors } = form.formState;

  const create = useMutation({
    mutationFn: async ({ url, types, description }: WebhookFields) => {
      const { subscription, secret } = (await unwrap(api.POST('/webhooks', { body: { url, ...(types.length ? { types } : {}), ...(description ? { description } : {}) } }))).data;
      // the secret goes straight to the shown-once dialog: never into the mutation's data (TanStack Query's cache)
      onCreated(subscription, secret);
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
    <form onSubmit={(event) => void form.handleSubmit((fields) => create.mutate(fields))(event)} noValidate>
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
        <TextInput label={t('webhooks.description')} maxLength={500} error={errors.description?.message} {...form.register('description')} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            {t('cancel')}
          </Button>
          <Button type="submit" loading={create.isPending}>
            {t('webhooks.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
