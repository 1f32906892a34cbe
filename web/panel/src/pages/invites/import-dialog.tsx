/**
 * Importing a CSV or XLSX list: the server reads the file (header and rows), the person maps each
 * column, every row is checked by the import's own rules (a dry run, in parts, with progress)
 * and rows with errors can be fixed here before anything is written; then the import runs in
 * parts into one batch, with progress, and its batch can be sent at once.
 */
import { Alert, Button, FileInput, Group, Modal, Progress, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import { ScrollRegion } from '../../ui/scroll-region';
import { fieldText, problemText } from '../../ui/problem-text';
import { fileAsBase64, INVITES, type ImportFile, type ImportSummary } from './invites-api';
import { importInParts } from './import-parts';
import { NS } from './strings';
import { ProblemAlert } from '../../ui/problem-alert';

const TARGETS = ['name', 'email', 'phone', 'externalId', 'expiresAt', 'dim'] as const;
type Target = (typeof TARGETS)[number] | '';
const PREVIEW_ROWS = 5;

/** A first guess from the column's own name; the person corrects it. */
function guess(column: string): { target: Target; key: string } {
  const name = column.trim().toLowerCase().replace(/[\s_-]/g, '');
  if (column.startsWith('dim.')) return { target: 'dim', key: column.slice(4) };
  if (['email', 'mail', 'correo'].includes(name)) return { target: 'email', key: '' };
  if (['phone', 'telefone', 'telefono', 'teléfono', 'whatsapp'].includes(name)) return { target: 'phone', key: '' };
  if (['name', 'nome', 'nombre', 'fullname'].includes(name)) return { target: 'name', key: '' };
  if (name === 'externalid') return { target: 'externalId', key: '' };
  if (name === 'expiresat') return { target: 'expiresAt', key: '' };
  return { target: '', key: '' };
}

type Stage = { step: 'file' } | { step: 'map' } | { step: 'checking'; done: number } | { step: 'checked'; invalid: ImportSummary['invalidRows'] } | { step: 'importing'; done: number } | { step: 'done'; summary: ImportSummary };

export function ImportDialog({ formId, onClose, onSend }: { formId: string; onClose: () => void; onSend: (batchId: string) => void }) {
  const { t } = useTranslation(NS);
  const { t: tc } = useTranslation();
  const queryClient = useQueryClient();
  const [file, setFile] = useState<{ name: string; data: ImportFile } | null>(null);
  const [mapping, setMapping] = useState<{ target: Target; key: string }[]>([]);
  const [stage, setStage] = useState<Stage>({ step: 'file' });
  const [reading, setReading] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const mapped = mapping.flatMap((m, index) => (m.target === '' || (m.target === 'dim' && !m.key.trim()) ? [] : [{ index, column: m.target === 'dim' ? `dim.${m.key.trim()}` : m.target }]));
  const hasContact = mapped.some((m) => m.column === 'email' || m.column === 'phone');

  const read = async (chosen: File | null) => {
    setProblem(null);
    if (!chosen) return;
    setReading(true);
    try {
      const data = (await unwrap(api.POST('/invites/import/read', { body: { fileName: chosen.name, content: await fileAsBase64(chosen) } }))).data;
      setFile({ name: chosen.name, data });
      setMapping(data.columns.map(guess));
      setStage({ step: 'map' });
    } catch (error) {
      setProblem(problemText(tc, error));
    } finally {
      setReading(false);
    }
  };

  /** Sends the mapped rows in parts (import-parts.ts); answers the summaries merged. */
  const run = (rows: ImportFile['rows'], dryRun: boolean, progress: (done: number) => void): Promise<ImportSummary> =>
    importInParts(async (body) => (await unwrap(api.POST('/forms/{id}/invites/import', { params: { path: { id: formId } }, body }))).data, {
      columns: mapped.map((m) => m.column),
      rows: rows.map((row) => ({ line: row.line, cells: mapped.map((m) => row.cells[m.index] ?? '') })),
      dryRun,
      onProgress: progress,
    });

  const check = async () => {
    if (!file) return;
    setProblem(null);
    setStage({ step: 'checking', done: 0 });
    try {
      const summary = await run(file.data.rows, true, (done) => setStage({ step: 'checking', done }));
      setStage({ step: 'checked', invalid: summary.invalidRows });
    } catch (error) {
      setProblem(problemText(tc, error));
      setStage({ step: 'map' });
    }
  };

  const importRows = async (withoutLines: Set<number>) => {
    if (!file) return;
    setProblem(null);
    const rows = file.data.rows.filter((row) => !withoutLines.has(row.line));
    setStage({ step: 'importing', done: 0 });
    try {
      const summary = await run(rows, false, (done) => setStage({ step: 'importing', done }));
      setStage({ step: 'done', summary });
      await queryClient.invalidateQueries({ queryKey: [...INVITES, formId] });
    } catch (error) {
      setProblem(problemText(tc, error));
      setStage({ step: 'map' });
    }
  };

  /** A fix typed beside an error: the cell of that line under the column the error names. */
  const fixCell = (line: number, column: string, value: string) => {
    const target = mapped.find((m) => m.column === column);
    if (!file || !target) return;
    const rows = file.data.rows.map((row) => (row.line === line ? { ...row, cells: row.cells.map((cell, i) => (i === target.index ? value : cell)) } : row));
    setFile({ ...file, data: { ...file.data, rows } });
  };
  const cellOf = (line: number, column: string) => {
    const target = mapped.find((m) => m.column === column);
    return target ? (file?.data.rows.find((row) => row.line === line)?.cells[target.index] ?? '') : null;
  };

  const total = file?.data.rows.length ?? 0;
  return (
    <Modal opened onClose={onClose} title={t('import.title')} size="xl" closeButtonProps={{ 'aria-label': t('close') }}>
      <Stack>
        {problem && <ProblemAlert>{problem}</ProblemAlert>}
        {(stage.step === 'file' || stage.step === 'map') && (
          <FileInput label={t('import.file')} description={t('import.fileHelp')} accept=".csv,.xlsx,text/csv" onChange={(chosen) => void read(chosen)} disabled={reading} />
        )}
        {reading && <Text role="status">{t('import.reading')}</Text>}
        {file && stage.step === 'map' && (
          <>
            <Text fw={600}>{t('import.preview', { name: file.name, count: total })}</Text>
            <ScrollRegion label={t('import.preview', { name: file.name, count: total })} minWidth={120 * file.data.columns.length}>
              <Table withTableBorder>
                <Table.Thead>
                  <Table.Tr>{file.data.columns.map((column, i) => <Table.Th key={i}>{column}</Table.Th>)}</Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {file.data.rows.slice(0, PREVIEW_ROWS).map((row) => (
                    <Table.Tr key={row.line}>{row.cells.map((cell, i) => <Table.Td key={i}>{cell}</Table.Td>)}</Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </ScrollRegion>
            <Text fw={600}>{t('import.mapping')}</Text>
            {file.data.columns.map((column, i) => (
              <Group key={i} align="flex-end" wrap="wrap">
                <Select
                  label={t('import.column', { name: column })}
                  data={[{ value: '', label: t('import.ignore') }, ...TARGETS.map((target) => ({ value: target, label: t(`import.targets.${target}`) }))]}
                  value={mapping[i].target}
                  allowDeselect={false}
                  onChange={(value) => setMapping(mapping.map((m, j) => (j === i ? { ...m, target: (value ?? '') as Target } : m)))}
                  w={240}
                />
                {mapping[i].target === 'dim' && (
                  <TextInput label={t('import.dimKey', { name: column })} value={mapping[i].key} maxLength={40} onChange={(event) => { const key = event.currentTarget.value; setMapping(mapping.map((m, j) => (j === i ? { ...m, key } : m))); }} />
                )}
              </Group>
            ))}
            {!hasContact && <Text c="red.9">{t('import.needsContact')}</Text>}
            <Button onClick={() => void check()} disabled={!hasContact} w="fit-content">
              {t('import.check')}
            </Button>
          </>
        )}
        {(stage.step === 'checking' || stage.step === 'importing') && (
          <Stack gap={4} role="status" aria-live="polite">
            <Text>{t(stage.step === 'checking' ? 'import.checking' : 'import.importing', { done: stage.done, total })}</Text>
            <Progress value={total ? Math.round((100 * stage.done) / total) : 100} aria-label={t('import.progress')} />
          </Stack>
        )}
        {stage.step === 'checked' && (
          <>
            {stage.invalid.length === 0 ? (
              <Alert color="green.9" role="status">{t('import.checked', { count: total })}</Alert>
            ) : (
              <>
                <Alert color="orange.9" role="alert">{t('import.errors', { count: stage.invalid.length })}</Alert>
                <ScrollRegion label={t('import.errorsTable')} minWidth={480}>
                  <Table>
                    <Table.Caption>{t('import.errorsTable')}</Table.Caption>
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th>{t('import.line')}</Table.Th>
                        <Table.Th>{t('import.errorsTable')}</Table.Th>
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {stage.invalid.map(({ line, errors }) => (
                        <Table.Tr key={line}>
                          <Table.Td>{line}</Table.Td>
                          <Table.Td>
                            <Stack gap={4}>
                              {errors.map((error, k) => {
                                const column = error.path.startsWith('dims.') ? `dim.${error.path.slice(5)}` : error.path;
                                const value = cellOf(line, column);
                                return value === null ? (
                                  <Text key={k} size="sm" c="red.9">{error.path}: {fieldText(tc, { ...error, code: error.code as never })}</Text>
                                ) : (
                                  <TextInput
                                    key={k}
                                    size="xs"
                                    label={t('import.fix', { line, field: column })}
                                    error={fieldText(tc, { ...error, code: error.code as never })}
                                    value={value}
                                    onChange={(event) => fixCell(line, column, event.currentTarget.value)}
                                  />
                                );
                              })}
                            </Stack>
                          </Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                </ScrollRegion>
              </>
            )}
            <Group>
              {stage.invalid.length > 0 && (
                <>
                  <Button variant="default" onClick={() => void check()}>{t('import.check')}</Button>
                  <Button variant="default" onClick={() => void importRows(new Set(stage.invalid.map((row) => row.line)))}>{t('import.skipInvalid')}</Button>
                </>
              )}
              {stage.invalid.length === 0 && <Button onClick={() => void importRows(new Set())}>{t('import.run', { count: total })}</Button>}
            </Group>
          </>
        )}
        {stage.step === 'done' && (
          <>
            <Alert color="green.9" role="status">{t('import.done', stage.summary)}</Alert>
            <Group>
              <Button variant="default" onClick={onClose}>{t('close')}</Button>
              {stage.summary.batchId && stage.summary.created > 0 && <Button onClick={() => onSend(stage.summary.batchId!)}>{t('import.sendNow')}</Button>}
            </Group>
          </>
        )}
      </Stack>
    </Modal>
  );
}
