/**
 * A secret the server gives once (an API key's token, a webhook's signing secret): shown in a
 * dialog with a copy button, and gone from the page when the dialog closes.
 */
import { Alert, Button, CopyButton, Group, Stack, Text, Textarea } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Dialog } from './dialog';
import { NAMESPACE } from './strings';

export interface OnceSecret {
  title: string;
  label: string;
  value: string;
  note?: string;
}

export function SecretReveal({ secret, onClose }: { secret: OnceSecret | null; onClose: () => void }) {
  const { t } = useTranslation(NAMESPACE);
  return (
    <Dialog opened={secret !== null} onClose={onClose} title={secret?.title} size="lg" closeOnClickOutside={false}>
      {secret && (
        <Stack>
          <Alert color="yellow" title={t('secret.onceTitle')} styles={{ title: { color: 'var(--mantine-color-text)' } }}>
            {t('secret.onceBody')}
          </Alert>
          {secret.note && <Text size="sm">{secret.note}</Text>}
          <Textarea label={secret.label} value={secret.value} readOnly autosize minRows={1} data-testid="once-secret" styles={{ input: { fontFamily: 'monospace', wordBreak: 'break-all' } }} />
          <Group justify="space-between">
            <CopyButton value={secret.value}>
              {({ copied, copy }) => (
                <Button variant="default" onClick={copy}>
                  {copied ? t('secret.copied') : t('secret.copy')}
                </Button>
              )}
            </CopyButton>
            <Button onClick={onClose}>{t('secret.done')}</Button>
          </Group>
        </Stack>
      )}
    </Dialog>
  );
}
