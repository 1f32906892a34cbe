/**
 * The Import tab: a roster file (the API's JSON), the CLI's CSV files, or a OneRoster or Canvas
 * export's files (read as `quorum roster import --format` reads them), always previewed as a dry
 * run first; applied only after the person confirms the diff they saw. A sync that would drop too
 * much of a class is refused, with the threshold and the classes over it.
 */
import { Alert, Button, FileInput, Group, List, Loader, NumberInput, Paper, SegmentedControl, Select, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { ApiProblem, unwrap } from '../../api/errors';
import { fieldText, problemText } from '../../ui/problem-text';
import { ImportDiff, ThresholdRefusal, type ThresholdDetails } from './import-result';
import type { ImportAnswer } from './rosters-api';
import { NS } from './strings';
import { ProblemAlert } from '../../ui/problem-alert';

type Source = 'json' | 'csv' | 'oneroster' | 'canvas';
const SOURCES: Source[] = ['json', 'csv', 'oneroster', 'canvas'];
/** The files format of each source the files route reads. */
const FILE_FORMATS = { csv: 'quorum', oneroster: 'oneroster', canvas: 'canvas' } as const;
/** The fields the files route refuses with a message naming the file or the package's kind. */
const FILE_FIELDS = new Set(['files', 'mode']);
type Mode = 'upsert' | 'sync';
type Stage = 'idle' | 'reading' | 'checking' | 'applying';
const LISTS = ['people', 'classGroups', 'classes', 'enrollments'] as const;

/** The request an import sends, built once from the files so the applied import is the one previewed. */
type Prepared = { source: 'json'; lists: Record<string, unknown[]> } | { source: Exclude<Source, 'json'>; files: { name: string; content: string }[] };

async function prepare(source: Source, files: File[]): Promise<Prepared> {
  if (source !== 'json') return { source, files: await Promise.all(files.map(async (file) => ({ name: file.name, content: await file.text() }))) };
  const parsed: unknown = JSON.parse(await files[0].text());
  const record = typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
  // Only the roster's lists: mode, dryRun and the threshold are the person's choices on this page.
  return { source, lists: Object.fromEntries(LISTS.filter((list) => Array.isArray(record[list])).map((list) => [list, record[list] as unknown[]])) };
}

function send(prepared: Prepared, options: { mode: Mode; dryRun: boolean; maxDropRatio: number }) {
  if (prepared.source !== 'json') return unwrap(api.POST('/rosters/import-files', { body: { ...options, format: FILE_FORMATS[prepared.source], files: prepared.files } }));
  return unwrap(api.POST('/rosters/import', { body: { enrollments: [], ...prepared.lists, ...options } }));
}

export function ImportPanel() {
  const { t } = useTranslation(NS);
  // problem and field texts live in the default namespace
  const { t: tc } = useTranslation();
  const client = useQueryClient();
  const [source, setSource] = useState<Source>('json');
  const [files, setFiles] = useState<File[]>([]);
  const [mode, setMode] = useState<Mode>('upsert');
  const [maxDropPercent, setMaxDropPercent] = useState<number>(20);
  const [stage, setStage] = useState<Stage>('idle');
  const [prepared, setPrepared] = useState<Prepared | null>(null);
  const [preview, setPreview] = useState<ImportAnswer | null>(null);
  const [applied, setApplied] = useState<ImportAnswer | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [problem, setProblem] = useState<{ text: string; fields: string[] } | null>(null);
  const [refusal, setRefusal] = useState<ThresholdDetails | null>(null);
  const narrow = useMediaQuery('(max-width: 36em)');
  const options = (dryRun: boolean) => ({ mode, dryRun, maxDropRatio: maxDropPercent / 100 });

  const reset = () => {
    setPreview(null);
    setApplied(null);
    setConfirming(false);
    setProblem(null);
    setRefusal(null);
  };

  const fail = (error: unknown) => {
    if (error instanceof ApiProblem && error.code === 'DROP_THRESHOLD_EXCEEDED') setRefusal(error.details as unknown as ThresholdDetails);
    else if (error instanceof SyntaxError) setProblem({ text: t('import.notJson', { message: error.message }), fields: [] });
    // What is wrong with the files themselves (which file, which line, a delta package) only the server's words say.
    else setProblem({ text: problemText(tc, error), fields: error instanceof ApiProblem ? error.fields.map((f) => `${f.path}: ${FILE_FIELDS.has(f.path) ? f.message : fieldText(tc, f)}`) : [] });
  };

  async function previewImport() {
    reset();
    if (files.length === 0) return setProblem({ text: t('import.noFile'), fields: [] });
    try {
      setStage('reading');
      const ready = await prepare(source, files);
      setPrepared(ready);
      setStage('checking');
      setPreview((await send(ready, options(true))).data);
    } catch (error) {
      fail(error);
    } finally {
      setStage('idle');
    }
  }

  async function apply() {
    if (!prepared) return;
    setConfirming(false);
    setStage('applying');
    try {
      setApplied((await send(prepared, options(false))).data);
      setPreview(null);
      void client.invalidateQueries({ queryKey: ['rosters'] });
    } catch (error) {
      fail(error);
    } finally {
      setStage('idle');
    }
  }

  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="import-heading">
      <Stack>
        <Title order={2} size="h4" id="import-heading">
          {t('import.heading')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('import.help')}
        </Text>
        <SegmentedControl
          aria-label={t('import.source')}
          value={source}
          onChange={(value) => {
            setSource(value as Source);
            setFiles([]);
            reset();
          }}
          fullWidth
          // four sources do not fit side by side on a phone
          orientation={narrow ? 'vertical' : 'horizontal'}
          data={SOURCES.map((value) => ({ value, label: t(`import.sources.${value}`) }))}
        />
        {source === 'json' ? (
          <FileInput label={t('import.jsonFile')} accept="application/json,.json" value={files[0] ?? null} onChange={(file) => (setFiles(file ? [file] : []), reset())} />
        ) : (
          <FileInput label={t(`import.files.${source}`)} accept="text/csv,.csv" multiple value={files} onChange={(chosen) => (setFiles(chosen), reset())} />
        )}
        <Group grow wrap="wrap" align="flex-start">
          <Select
            label={t('import.mode')}
            data={(['upsert', 'sync'] as const).map((value) => ({ value, label: t(`import.modes.${value}`) }))}
            value={mode}
            onChange={(value) => (setMode((value as Mode) ?? 'upsert'), reset())}
            allowDeselect={false}
            miw={220}
          />
          {mode === 'sync' ? (
            <NumberInput
              label={t('import.maxDropRatio')}
              description={t('import.maxDropRatioHelp')}
              min={0}
              max={100}
              value={maxDropPercent}
              onChange={(value) => (setMaxDropPercent(typeof value === 'number' ? value : 20), reset())}
              miw={220}
            />
          ) : null}
        </Group>
        <Group>
          <Button onClick={() => void previewImport()} loading={stage === 'reading' || stage === 'checking'} disabled={stage !== 'idle'}>
            {t('import.preview')}
          </Button>
        </Group>
        {stage !== 'idle' ? (
          <Group gap="sm" role="status" aria-live="polite">
            <Loader size="sm" aria-hidden />
            <Text size="sm">{t(`import.${stage}`)}</Text>
          </Group>
        ) : null}
        {refusal ? <ThresholdRefusal details={refusal} /> : null}
        {problem ? (
          <ProblemAlert title={problem.text}>
            {problem.fields.length > 0 ? (
              <List size="sm">
                {problem.fields.map((field) => (
                  <List.Item key={field}>{field}</List.Item>
                ))}
              </List>
            ) : null}
          </ProblemAlert>
        ) : null}
        {preview ? (
          <>
            <ImportDiff answer={preview} />
            {confirming ? (
              <Alert color="yellow.9" role="alertdialog" aria-label={t('import.apply')} title={t('import.confirm')}>
                <Group mt="xs">
                  <Button color="red.9" onClick={() => void apply()}>
                    {t('import.confirmYes')}
                  </Button>
                  <Button variant="default" onClick={() => setConfirming(false)}>
                    {t('import.cancel')}
                  </Button>
                </Group>
              </Alert>
            ) : (
              <Group>
                <Button onClick={() => setConfirming(true)}>{t('import.apply')}</Button>
              </Group>
            )}
          </>
        ) : null}
        {applied ? (
          <>
            <Alert color="green.9" role="status">
              {t('import.applied', { count: applied.events })}
            </Alert>
            <ImportDiff answer={applied} />
          </>
        ) : null}
      </Stack>
    </Paper>
  );
}
