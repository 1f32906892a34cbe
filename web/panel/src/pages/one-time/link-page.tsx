/** /panel/link#token=…: a one-time sign-in link (the demo's first sign-in); posts it at once. */
import { Loader, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { ApiProblem, unwrap } from '../../api/errors';
import { adoptSession } from '../../api/session';
import { AuthLayout } from '../../ui/auth-layout';
import { problemText } from '../../ui/problem-text';
import { LinkProblem, useFragmentToken } from './fragment-token';

export function LinkPage() {
  const { t } = useTranslation();
  const token = useFragmentToken();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [problem, setProblem] = useState<string | null>(token ? null : t('oneTime.invalid'));
  // the token is single use: StrictMode's second effect run must not post it again
  const posted = useRef(false);

  useEffect(() => {
    if (!token || posted.current) return;
    posted.current = true;
    unwrap(api.POST('/session/link', { body: { token } }))
      .then(async ({ data }) => {
        adoptSession(queryClient, data);
        await navigate({ to: '/' });
      })
      .catch((error: unknown) => {
        const spent = error instanceof ApiProblem && error.status >= 400 && error.status < 500 && error.code !== 'RATE_LIMITED';
        setProblem(spent ? t('oneTime.invalid') : problemText(t, error));
      });
  }, [token, navigate, queryClient, t]);

  return (
    <AuthLayout title={t('link.title')}>
      {problem ? (
        <LinkProblem message={problem} />
      ) : (
        <Stack align="center" role="status">
          <Loader aria-hidden />
          <Text>{t('link.signingIn')}</Text>
        </Stack>
      )}
    </AuthLayout>
  );
}
