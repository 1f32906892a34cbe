import { Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../ui/empty-state';

/** Placeholder until this area is built: its heading and an empty state. */
export function AccountPage() {
  const { t } = useTranslation();
  return (
    <Stack>
      <Title order={1}>{t('nav.account')}</Title>
      <EmptyState title={t('account.emptyTitle')} body={t('account.emptyBody')} />
    </Stack>
  );
}
