/** What a Forms page shows while its data loads, or when it could not be read. */
import { Alert, Button, Group, Loader, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { problemText } from '../../ui/problem-text';
import { NS } from './strings';

export function Loading() {
  const { t } = useTranslation(NS);
  return (
    <Group gap="sm" role="status" aria-live="polite">
      <Loader size="sm" aria-hidden />
      <Text>{t('loading')}</Text>
    </Group>
  );
}

export function LoadError({ error, retry }: { error: unknown; retry: () => void }) {
  const { t } = useTranslation([NS, 'translation']);
  return (
    <Alert color="red.9" role="alert" title={problemText(t, error)}>
      <Button variant="light" color="red.9" mt="xs" onClick={retry}>
        {t('retry')}
      </Button>
    </Alert>
  );
}
