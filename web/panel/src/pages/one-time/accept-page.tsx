/** /panel/accept#token=…: a colleague invitation; the new member gives a name and a password. */
import { Button, Stack, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { ApiProblem, applyFieldErrors, unwrap } from '../../api/errors';
import { adoptSession } from '../../api/session';
import { AuthLayout } from '../../ui/auth-layout';
import { fieldText, problemText } from '../../ui/problem-text';
import { LinkProblem, useFragmentToken } from './fragment-token';
import { PasswordFields } from './password-fields';
import { ProblemAlert } from '../../ui/problem-alert';

export function AcceptPage() {
  const { t } = useTranslation();
  const token = useFragmentToken();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [problem, setProblem] = useState<string | null>(null);
  const [spent, setSpent] = useState(false);
  const form = useForm<{ name: string; password: string; confirm: string }>({ defaultValues: { name: '', password: '', confirm: '' } });

  const submit = form.handleSubmit(async ({ name, password }) => {
    if (!token) return;
    setProblem(null);
    try {
      const { data } = await unwrap(api.POST('/invitations/accept', { body: { token, name, password } }));
      adoptSession(queryClient, data);
      await navigate({ to: '/' });
    } catch (error) {
      if (error instanceof ApiProblem && (error.status === 401 || error.status === 404)) setSpent(true);
      else if (error instanceof ApiProblem && error.code === 'VALIDATION_ERROR') {
        const rest = applyFieldErrors(error, form.setError, ['name', 'password'], (field) => fieldText(t, field));
        if (rest.length > 0) setSpent(true);
      } else setProblem(problemText(t, error));
    }
  });

  return (
    <AuthLayout title={t('accept.title')}>
      {!token || spent ? (
        <LinkProblem message={t('oneTime.invalid')} />
      ) : (
        <form onSubmit={(event) => void submit(event)} noValidate>
          <Stack>
            {problem && (
              <ProblemAlert>
                {problem}
              </ProblemAlert>
            )}
            <TextInput
              label={t('accept.name')}
              autoComplete="name"
              required
              error={form.formState.errors.name?.message}
              {...form.register('name', { required: t('field.required'), maxLength: { value: 200, message: t('field.too_long_chars', { max: 200 }) } })}
            />
            <PasswordFields form={form} />
            <Button type="submit" loading={form.formState.isSubmitting} fullWidth>
              {t('accept.submit')}
            </Button>
          </Stack>
        </form>
      )}
    </AuthLayout>
  );
}
