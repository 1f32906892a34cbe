import { Button, Container, Text, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';

/** Shown in place of an area the session's permissions do not cover. */
export function ForbiddenPage() {
  const { t } = useTranslation();
  return (
    <Container size="sm" py="xl">
      <Title order={1}>{t('forbidden.title')}</Title>
      <Text mt="md">{t('forbidden.body')}</Text>
      <Button mt="lg" component={Link} to="/">
        {t('common.backHome')}
      </Button>
    </Container>
  );
}
