/** What an area's panel shows while its data loads, or when it could not be read (any area: shared strings). */
import { Alert, Button, Group, Loader, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { problemText } from './problem-text';

export function Loading() {
  const { t } = useTranslation();
  return (
    <Group gap="sm" role="status" aria-live="polite">
      <Loader size="sm" aria-hidden />
      <Text>{t('common.loading')}</Text>
    </Group>
  );
}

export function LoadError({ error, retry }: { error: unknown; retry: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert color="red.9" role="alert" title={problemText(t, error)}>
      <Button variant="light" color="red.9" mt="xs" onClick={retry}>
        {t('error.retry')}
      </Button>
    </Alert>
  );
}
