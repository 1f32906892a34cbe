import { Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../ui/empty-state';

/** Placeholder until this area is built: its heading and an empty state. */
export function MembersPage() {
  const { t } = useTranslation();
  return (
    <Stack>
      <Title order={1}>{t('nav.members')}</Title>
      <EmptyState title={t('members.emptyTitle')} body={t('members.emptyBody')} />
    </Stack>
  );
}
