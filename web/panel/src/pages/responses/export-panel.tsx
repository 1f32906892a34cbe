/**
 * Exports of the filtered scan, started from the table: the file streams in with its progress
 * (rows for CSV, counted as lines arrive; bytes for XLSX, which is compressed), then a link
 * downloads it. The server streams with flat memory; here the file is assembled as a Blob.
 */
import { Button, Checkbox, Group, Progress, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toProblem } from '../../api/errors';
import { problemText } from '../../ui/problem-text';
import { exportUrl, type Cut } from './responses-api';
import { RESPONSES_NS } from './strings';
import { ProblemAlert } from '../../ui/problem-alert';

type Format = 'csv' | 'xlsx';
type State =
  | { step: 'idle' }
  | { step: 'running'; format: Format; total: number; rows: number; bytes: number }
  | { step: 'done'; file: string; url: string }
  | { step: 'failed'; error: unknown };

const NEWLINE = 10;

async function download(url: string, format: Format, onProgress: (p: { total: number; rows: number; bytes: number }) => void): Promise<Blob> {
  const response = await fetch(url, { credentials: 'same-origin' });
  if (!response.ok || !response.body) throw toProblem(response.status, await response.json().catch(() => undefined));
  const total = Number(response.headers.get('x-export-total') ?? 0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  let lines = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    bytes += value.byteLength;
    if (format === 'csv') for (const byte of value) if (byte === NEWLINE) lines += 1;
    // the header line is not a row; an answer with a line break counts twice, so the count is capped
    onProgress({ total, rows: Math.min(Math.max(lines - 1, 0), total), bytes });
  }
  return new Blob(chunks as BlobPart[], { type: response.headers.get('content-type') ?? 'application/octet-stream' });
}

export function ExportPanel({ formId, slug, cut }: { formId: string; slug: string; cut: Cut }) {
  const { t, i18n } = useTranslation(RESPONSES_NS);
  const { t: tc } = useTranslation();
  const [keys, setKeys] = useState(false);
  const [state, setState] = useState<State>({ step: 'idle' });
  // a finished file's object URL is released when a new export starts or the page goes
  useEffect(() => () => void (state.step === 'done' && URL.revokeObjectURL(state.url)), [state]);

  async function start(format: Format) {
    setState({ step: 'running', format, total: 0, rows: 0, bytes: 0 });
    try {
      const blob = await download(exportUrl(formId, cut, format, keys), format, (p) => setState({ step: 'running', format, ...p }));
      setState({ step: 'done', file: `${slug}-responses.${format}`, url: URL.createObjectURL(blob) });
    } catch (error) {
      setState({ step: 'failed', error });
    }
  }

  const running = state.step === 'running';
  const size = (bytes: number) => new Intl.NumberFormat(i18n.language, { style: 'unit', unit: 'kilobyte', maximumFractionDigits: 0 }).format(bytes / 1024);
  return (
    <Stack gap="xs">
      <Group gap="sm">
        <Button variant="light" onClick={() => void start('csv')} disabled={running}>
          {t('export.csv')}
        </Button>
        <Button variant="light" onClick={() => void start('xlsx')} disabled={running}>
          {t('export.xlsx')}
        </Button>
        <Checkbox label={t('export.keys')} checked={keys} onChange={(event) => setKeys(event.currentTarget.checked)} disabled={running} />
      </Group>
      {state.step === 'running' && (
        <Stack gap={4} role="status" aria-live="polite">
          <Text size="sm">{state.format === 'csv' ? t('export.running', { rows: state.rows, total: state.total }) : t('export.runningBytes', { size: size(state.bytes) })}</Text>
          <Progress
            aria-label={t('export.progress')}
            value={state.format === 'csv' && state.total > 0 ? (100 * state.rows) / state.total : 100}
            animated={state.format === 'xlsx'}
            striped={state.format === 'xlsx'}
          />
        </Stack>
      )}
      {state.step === 'done' && (
        <Group gap="sm" role="status">
          <Text>{t('export.done')}</Text>
          <Button component="a" href={state.url} download={state.file}>
            {t('export.download', { file: state.file })}
          </Button>
        </Group>
      )}
      {state.step === 'failed' && (
        <ProblemAlert title={t('export.failed')}>
          {problemText(tc, state.error)}
        </ProblemAlert>
      )}
    </Stack>
  );
}
