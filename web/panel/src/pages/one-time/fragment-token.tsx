/**
 * One-time links carry their token in the URL fragment (never sent to the server, never logged).
 * The page reads it once and takes it out of the address bar and history, so it is not left
 * behind in a shared screen or a bookmark.
 */
import { Anchor, Stack } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ProblemAlert } from '../../ui/problem-alert';

const TOKEN_RE = /^[A-Za-z0-9_-]{16,256}$/;

function readToken(): string | null {
  const token = new URLSearchParams(window.location.hash.slice(1)).get('token');
  if (window.location.hash) window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search);
  return token && TOKEN_RE.test(token) ? token : null;
}

export function useFragmentToken(): string | null {
  const [token] = useState(readToken);
  return token;
}

/** The link was cut, spent or expired: say so and offer the way on. */
export function LinkProblem({ message }: { message: string }) {
  const { t } = useTranslation();
  return (
    <Stack>
      <ProblemAlert>
        {message}
      </ProblemAlert>
      <Anchor component={Link} to="/forgot-password">
        {t('oneTime.newLink')}
      </Anchor>
      <Anchor component={Link} to="/sign-in">
        {t('common.toSignIn')}
      </Anchor>
    </Stack>
  );
}
