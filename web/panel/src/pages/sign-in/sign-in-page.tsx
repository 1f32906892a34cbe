/**
 * Sign-in: e-mail and password; when the account has a second factor the answer says so
 * (401 with details.secondFactor) and a second step asks for the 6-digit code (or a recovery code), keeping the
 * e-mail and password of the first.
 */
import { Anchor, Button, Stack, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { ApiProblem, applyFieldErrors, unwrap } from '../../api/errors';
import { adoptSession } from '../../api/session';
import { AuthLayout } from '../../ui/auth-layout';
import { PasswordInput } from '../../ui/password-input';
import { fieldText, problemText } from '../../ui/problem-text';
import { ProblemAlert } from '../../ui/problem-alert';

/** The authenticator's 6 digits, or a recovery code as printed (xxxxx-xxxxx; spaces, dashes and case forgiven). */
const RECOVERY_OR_TOTP = /^\s*(\d{6}|[A-Za-z0-9]{5}[\s-]?[A-Za-z0-9]{5})\s*$/;

interface Credentials {
  email: string;
  password: string;
  code: string;
}

export function SignInPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { redirect } = useSearch({ from: '/sign-in' });
  const [secondStep, setSecondStep] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const form = useForm<Credentials>({ defaultValues: { email: '', password: '', code: '' } });
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async ({ email, password, code }) => {
    setProblem(null);
    try {
      const { data } = await unwrap(api.POST('/session', { body: secondStep ? { email, password, code: code.trim() } : { email, password } }));
      adoptSession(queryClient, data);
      // href (the path kept by the guard, search included) wins over `to` when present
      await navigate({ to: '/', href: redirect });
    } catch (error) {
      if (error instanceof ApiProblem && error.status === 401) {
        if (error.details?.secondFactor === true) {
          if (secondStep) form.setError('code', { type: 'invalid', message: t('signIn.codeWrong') }, { shouldFocus: true });
          setSecondStep(true);
          return;
        }
        setProblem(t('signIn.wrong'));
        return;
      }
      if (error instanceof ApiProblem && error.code === 'VALIDATION_ERROR') {
        applyFieldErrors(error, form.setError, ['email', 'password', 'code'], (field) => fieldText(t, field));
        return;
      }
      setProblem(problemText(t, error));
    }
  });

  return (
    <AuthLayout title={secondStep ? t('signIn.codeTitle') : t('signIn.title')}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack>
          {problem && (
            <ProblemAlert title={t('signIn.failed')}>
              {problem}
            </ProblemAlert>
          )}
          {secondStep ? (
            <TextInput
              label={t('signIn.code')}
              description={t('signIn.codeHelp')}
              autoComplete="one-time-code"
              autoCapitalize="characters"
              spellCheck={false}
              maxLength={12}
              autoFocus
              required
              error={errors.code?.message}
              {...form.register('code', { required: t('field.required'), pattern: { value: RECOVERY_OR_TOTP, message: t('signIn.codeFormat') } })}
            />
          ) : (
            <>
              <TextInput
                label={t('signIn.email')}
                type="email"
                autoComplete="username"
                required
                error={errors.email?.message}
                {...form.register('email', { required: t('field.required') })}
              />
              <PasswordInput
                label={t('signIn.password')}
                autoComplete="current-password"
                required
                error={errors.password?.message}
                {...form.register('password', { required: t('field.required') })}
              />
            </>
          )}
          <Button type="submit" loading={isSubmitting} fullWidth>
            {secondStep ? t('signIn.verify') : t('signIn.submit')}
          </Button>
          {secondStep ? (
            <Anchor component="button" type="button" onClick={() => setSecondStep(false)}>
              {t('signIn.back')}
            </Anchor>
          ) : (
            <Anchor component={Link} to="/forgot-password">
              {t('signIn.forgot')}
            </Anchor>
          )}
        </Stack>
      </form>
    </AuthLayout>
  );
}
