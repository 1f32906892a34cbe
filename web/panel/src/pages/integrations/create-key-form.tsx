/** The new-key form: name, scopes, rate limit and expiry; server field errors beside their fields. */
import { Button, Checkbox, Group, NumberInput, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { ApiProblem, applyFieldErrors, unwrap } from '../../api/errors';
import { fieldText, problemText } from '../../ui/problem-text';
import { localToInstant } from './format';
import { KEYS, scopesQuery, type ApiKey, type CreateKeyBody } from './integrations-api';
import { NAMESPACE } from './strings';
import { ProblemAlert } from '../../ui/problem-alert';

interface KeyFields {
  name: string;
  scopes: string[];
  rateLimitPerMin: number | string;
  expiresAt: string;
}

const FIELDS = ['name', 'scopes', 'rateLimitPerMin', 'expiresAt'] as const;

export function CreateKeyForm({ onCreated, onCancel }: { onCreated: (key: ApiKey, token: string) => void; onCancel: () => void }) {
  const { t } = useTranslation(NAMESPACE);
  const { t: tc } = useTranslation();
  const queryClient = useQueryClient();
  const scopes = useQuery(scopesQuery);
  const [problem, setProblem] = useState<string | null>(null);
  const form = useForm<KeyFields>({ defaultValues: { name: '', scopes: [], rateLimitPerMin: '', expiresAt: '' } });
  const { errors } = form.formState;

  const create = useMutation({
    mutationFn: async (fields: KeyFields) => {
      const body = {
        name: fields.name,
        // The choices are the server's own list (GET /keys/scopes): anything else it refuses beside the field.
        scopes: fields.scopes as CreateKeyBody['scopes'],
        ...(fields.rateLimitPerMin === '' ? {} : { rateLimitPerMin: Number(fields.rateLimitPerMin) }),
        ...(fields.expiresAt ? { expiresAt: localToInstant(fields.expiresAt) } : {}),
      };
      const { key, token } = (await unwrap(api.POST('/keys', { body }))).data;
      // the token goes straight to the shown-once dialog: never into the mutation's data (TanStack Query's cache)
      onCreated(key, token);
      return key;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: KEYS }),
    onError: (error) => {
      setProblem(null);
      if (error instanceof ApiProblem && error.code === 'VALIDATION_ERROR') {
        const rest = applyFieldErrors(error, form.setError, FIELDS, (field) => fieldText(tc, field));
        if (rest.length === 0) return;
      }
      setProblem(problemText(tc, error));
    },
  });

  return (
    <form onSubmit={(event) => void form.handleSubmit((fields) => create.mutate(fields))(event)} noValidate>
      <Stack>
        {problem && (
          <ProblemAlert>
            {problem}
          </ProblemAlert>
        )}
        <TextInput
          label={t('keys.name')}
          description={t('keys.nameHelp')}
          required
          maxLength={200}
          data-autofocus
          error={errors.name?.message}
          {...form.register('name', { required: tc('field.required') })}
        />
        <Controller
          control={form.control}
          name="scopes"
          render={({ field }) => (
            <Checkbox.Group label={t('keys.scopes')} description={t('keys.scopesHelp')} value={field.value} onChange={field.onChange} error={errors.scopes?.message}>
              <SimpleGrid cols={{ base: 1, xs: 2 }} mt="xs" spacing="xs">
                {(scopes.data ?? []).map((scope) => (
                  <Checkbox key={scope} value={scope} label={scope} />
                ))}
              </SimpleGrid>
            </Checkbox.Group>
          )}
        />
        <SimpleGrid cols={{ base: 1, xs: 2 }}>
          <Controller
            control={form.control}
            name="rateLimitPerMin"
            render={({ field }) => (
              <NumberInput
                label={t('keys.rateLimit')}
                description={t('keys.rateLimitHelp')}
                min={1}
                allowDecimal={false}
                allowNegative={false}
                value={field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
                ref={field.ref}
                error={errors.rateLimitPerMin?.message}
              />
            )}
          />
          <TextInput type="datetime-local" label={t('keys.expiresAt')} description={t('keys.expiresHelp')} error={errors.expiresAt?.message} {...form.register('expiresAt')} />
        </SimpleGrid>
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            {t('cancel')}
          </Button>
          <Button type="submit" loading={create.isPending}>
            {t('keys.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
