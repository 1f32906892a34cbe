/** Export of the builder's definition as the JSON file the CLI imports, and import of such a file into the builder. */
import { Alert, Button, FileButton, Group, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toFile, type Draft } from './definition';
import { NS } from './strings';

export function JsonTab({ draft, onImport }: { draft: Draft; onImport: (file: unknown) => void }) {
  const { t } = useTranslation(NS);
  const [outcome, setOutcome] = useState<'loaded' | 'invalid' | null>(null);
  const download = () => {
    const url = URL.createObjectURL(new Blob([JSON.stringify(toFile(draft), null, 2)], { type: 'application/json' }));
    const link = Object.assign(document.createElement('a'), { href: url, download: `${draft.slug}.json` });
    link.click();
    URL.revokeObjectURL(url);
  };
  const read = async (file: File | null) => {
    if (!file) return;
    try {
      onImport(JSON.parse(await file.text()));
      setOutcome('loaded');
    } catch {
      setOutcome('invalid');
    }
  };
  return (
    <Stack maw={720}>
      <Group>
        <Button onClick={download}>{t('json.export')}</Button>
        <FileButton onChange={(file) => void read(file)} accept="application/json,.json">
          {(props) => (
            <Button variant="default" {...props}>
              {t('json.import')}
            </Button>
          )}
        </FileButton>
      </Group>
      <Text size="sm" c="dimmed">
        {t('json.importHelp')}
      </Text>
      {outcome && (
        <Alert color={outcome === 'loaded' ? 'green.9' : 'red.9'} role={outcome === 'loaded' ? 'status' : 'alert'}>
          {t(`json.${outcome}`)}
        </Alert>
      )}
    </Stack>
  );
}
