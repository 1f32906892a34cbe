/** What every area shows while its data loads, when it could not be read, and a form's outcome. */
import { Alert, Group, Loader, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ProblemAlert } from './problem-alert';
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
    <ProblemAlert title={problemText(t, error)} retry={{ label: t('common.retry'), onClick: retry }}>
      {children}
    </ProblemAlert>
  );
}

/** A form's outcome: "saved" (polite) or a refusal that is about no single field (assertive). */
export function FormOutcome({ saved, problem }: { saved: string | null; problem: string | null }) {
  if (problem) return <ProblemAlert>{problem}</ProblemAlert>;
  return saved ? (
    <Alert color="green.9" role="status">
      {saved}
    </Alert>
  ) : null;
}
