import { Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../ui/empty-state';

/** Placeholder until this area is built: its heading and an empty state. */
export function SettingsPage() {
  const { t } = useTranslation();
  return (
    <Stack>
      <Title order={1}>{t('nav.settings')}</Title>
      <EmptyState title={t('settings.emptyTitle')} body={t('settings.emptyBody')} />
    </Stack>
  );
}
