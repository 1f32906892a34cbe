/** What a Settings panel shows while its data loads, or when it could not be read. */
import { Alert, Group, Loader, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { problemText } from '../../ui/problem-text';
import { NS } from './strings';
import { ProblemAlert } from '../../ui/problem-alert';

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
    <ProblemAlert title={problemText(t, error)} retry={{ label: t('retry'), onClick: retry }} />
  );
}

/** A form's outcome: "saved" (polite) or a refusal that is about no single field (assertive). */
export function FormOutcome({ saved, problem }: { saved: string | null; problem: string | null }) {
  if (problem) {
    return (
      <ProblemAlert>
        {problem}
      </ProblemAlert>
    );
  }
  return saved ? (
    <Alert color="green.9" role="status">
      {saved}
    </Alert>
  ) : null;
}
