/** /panel/set-password#token=…: a new password for a reset or a new user; signs in. */
import { Button, Stack } from '@mantine/core';
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

export function SetPasswordPage() {
  const { t } = useTranslation();
  const token = useFragmentToken();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [problem, setProblem] = useState<string | null>(null);
  const [spent, setSpent] = useState(false);
  const form = useForm<{ password: string; confirm: string }>({ defaultValues: { password: '', confirm: '' } });

  const submit = form.handleSubmit(async ({ password }) => {
    if (!token) return;
    setProblem(null);
    try {
      const { data } = await unwrap(api.POST('/password', { body: { token, password } }));
      adoptSession(queryClient, data);
      await navigate({ to: '/' });
    } catch (error) {
      if (error instanceof ApiProblem && (error.status === 401 || error.status === 404)) setSpent(true);
      else if (error instanceof ApiProblem && error.code === 'VALIDATION_ERROR') {
        const rest = applyFieldErrors(error, form.setError, ['password'], (field) => fieldText(t, field));
        if (rest.length > 0) setSpent(true); // only the token can be wrong beside the password
      } else setProblem(problemText(t, error));
    }
  });

  return (
    <AuthLayout title={t('setPassword.title')}>
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
            <PasswordFields form={form} />
            <Button type="submit" loading={form.formState.isSubmitting} fullWidth>
              {t('setPassword.submit')}
            </Button>
          </Stack>
        </form>
      )}
    </AuthLayout>
  );
}
