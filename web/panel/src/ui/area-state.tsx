/** What an area shows while its data loads, or when it could not be read (a sentence, and a way to try again). */
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

export function LoadError({ error, retry, children }: { error: unknown; retry: () => void; children?: React.ReactNode }) {
  const { t } = useTranslation();
  return (
    <Alert color="red.9" role="alert" title={problemText(t, error)}>
      {children}
      <Button variant="light" color="red.9" mt="xs" onClick={retry}>
        {t('common.retry')}
      </Button>
    </Alert>
  );
}
