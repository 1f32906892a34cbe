import { Button, Container, Text, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';

/** Any path the app does not know. */
export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <Container size="sm" py="xl" component="main" id="main">
      <Title order={1}>{t('notFound.title')}</Title>
      <Text mt="md">{t('notFound.body')}</Text>
      <Button mt="lg" component={Link} to="/">
        {t('common.backHome')}
      </Button>
    </Container>
  );
}
