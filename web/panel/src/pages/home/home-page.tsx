import { Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { sessionQuery } from '../../api/session';
import { EmptyState } from '../../ui/empty-state';

/** The first page after sign-in: who and where the person is. */
export function HomePage() {
  const { t } = useTranslation();
  const { data: session } = useQuery(sessionQuery);
  if (!session) return null;
  return (
    <Stack>
      <Title order={1}>{t('home.title', { name: session.user.name })}</Title>
      {session.company ? (
        <Text>{t('home.company', { company: session.company.name })}</Text>
      ) : (
        <EmptyState title={t('home.noCompanyTitle')} body={t('home.noCompanyBody')} />
      )}
    </Stack>
  );
}
