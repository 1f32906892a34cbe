/** Forgot password: always the same answer (the server does not say whether the address exists). */
import { Alert, Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { ApiProblem, applyFieldErrors, unwrap } from '../../api/errors';
import { AuthLayout } from '../../ui/auth-layout';
import { fieldText, problemText } from '../../ui/problem-text';
import { ProblemAlert } from '../../ui/problem-alert';

export function ForgotPasswordPage() {
  const { t } = useTranslation();
  const [sent, setSent] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const form = useForm<{ email: string }>({ defaultValues: { email: '' } });
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async ({ email }) => {
    setProblem(null);
    try {
      await unwrap(api.POST('/password-reset', { body: { email } }));
      setSent(true);
    } catch (error) {
      if (error instanceof ApiProblem && error.code === 'VALIDATION_ERROR') {
        applyFieldErrors(error, form.setError, ['email'], (field) => fieldText(t, field));
        return;
      }
      setProblem(problemText(t, error));
    }
  });

  return (
    <AuthLayout title={t('forgot.title')}>
      {sent ? (
        <Stack>
          <Alert color="green" role="status">
            {t('forgot.sent')}
          </Alert>
          <Anchor component={Link} to="/sign-in">
            {t('common.toSignIn')}
          </Anchor>
        </Stack>
      ) : (
        <form onSubmit={(event) => void submit(event)} noValidate>
          <Stack>
            <Text size="sm">{t('forgot.help')}</Text>
            {problem && (
              <ProblemAlert>
                {problem}
              </ProblemAlert>
            )}
            <TextInput
              label={t('signIn.email')}
              type="email"
              autoComplete="email"
              required
              error={errors.email?.message}
              {...form.register('email', { required: t('field.required') })}
            />
            <Button type="submit" loading={isSubmitting} fullWidth>
              {t('forgot.submit')}
            </Button>
            <Anchor component={Link} to="/sign-in">
              {t('common.toSignIn')}
            </Anchor>
          </Stack>
        </form>
      )}
    </AuthLayout>
  );
}
