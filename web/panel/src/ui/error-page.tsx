/**
 * What a person sees when something fails: never a stack or a code, a sentence and a way on.
 * ForbiddenError (thrown by a route's permission check) shows the "no permission" page.
 */
import { Button, Container, Group, Text, Title } from '@mantine/core';
import { Link, useRouter, type ErrorComponentProps } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { ApiProblem } from '../api/errors';
import { ForbiddenPage } from '../pages/errors/forbidden-page';

export class ForbiddenError extends Error {
  constructor() {
    super('forbidden');
    this.name = 'ForbiddenError';
  }
}

export function ErrorPage({ error, reset }: ErrorComponentProps) {
  const { t } = useTranslation();
  const router = useRouter();
  if (error instanceof ForbiddenError || (error instanceof ApiProblem && error.status === 403)) return <ForbiddenPage />;
  const offline = error instanceof ApiProblem && error.code === 'NETWORK';
  return (
    <Container size="sm" py="xl" component="main" id="main">
      <Title order={1}>{t('error.title')}</Title>
      <Text mt="md">{offline ? t('error.network') : t('error.body')}</Text>
      <Group mt="lg">
        <Button
          onClick={() => {
            reset();
            void router.invalidate();
          }}
        >
          {t('error.retry')}
        </Button>
        <Button component={Link} to="/" variant="default">
          {t('common.backHome')}
        </Button>
      </Group>
    </Container>
  );
}
