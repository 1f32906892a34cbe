/** An import's diff (dry run or applied): counts per list, enrollments per class, row errors; or the drop-threshold refusal explained. */
import { List, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ScrollRegion } from '../../ui/scroll-region';
import type { ImportAnswer } from './rosters-api';
import { NS } from './strings';

const LISTS = ['people', 'classGroups', 'classes', 'enrollments'] as const;

export function ImportDiff({ answer }: { answer: ImportAnswer }) {
  const { t } = useTranslation(NS);
  const { result, byClass } = answer;
  return (
    <Stack gap="sm">
      <Title order={3} size="h5">
        {result.dryRun ? t('import.diffHeading') : t('import.appliedHeading')}
      </Title>
      <ScrollRegion label={t('import.region')} minWidth={420}>
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('import.list')}</Table.Th>
              <Table.Th ta="right">{t('import.created')}</Table.Th>
              <Table.Th ta="right">{t('import.updated')}</Table.Th>
              <Table.Th ta="right">{t('import.unchanged')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {LISTS.map((list) => (
              <Table.Tr key={list}>
                <Table.Td>{t(`import.lists.${list}`)}</Table.Td>
                <Table.Td ta="right">{result.created[list]}</Table.Td>
                <Table.Td ta="right">{result.updated[list]}</Table.Td>
                <Table.Td ta="right">{result.unchanged[list]}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollRegion>
      <Text fw={result.dropped > 0 ? 700 : undefined}>{t('import.droppedTotal', { count: result.dropped })}</Text>
      {byClass.length > 0 ? (
        <>
          <Title order={4} size="h6">
            {t('import.byClass')}
          </Title>
          <ScrollRegion label={t('import.byClass')} minWidth={420}>
            <Table striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('import.classCode')}</Table.Th>
                  <Table.Th ta="right">{t('import.created')}</Table.Th>
                  <Table.Th ta="right">{t('import.updated')}</Table.Th>
                  <Table.Th ta="right">{t('import.unchanged')}</Table.Th>
                  <Table.Th ta="right">{t('import.dropped')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {byClass.map((c) => (
                  <Table.Tr key={c.classCode}>
                    <Table.Td>{c.classCode}</Table.Td>
                    <Table.Td ta="right">{c.created}</Table.Td>
                    <Table.Td ta="right">{c.updated}</Table.Td>
                    <Table.Td ta="right">{c.unchanged}</Table.Td>
                    <Table.Td ta="right">{c.dropped}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollRegion>
        </>
      ) : null}
      <Title order={4} size="h6">
        {t('import.errors')}
      </Title>
      {result.errors.length === 0 ? (
        <Text c="dimmed">{t('import.noErrors')}</Text>
      ) : (
        <ScrollRegion label={t('import.errors')} minWidth={420}>
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('import.errorPath')}</Table.Th>
                <Table.Th>{t('import.errorMessage')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {result.errors.map((e) => (
                <Table.Tr key={e.path}>
                  <Table.Td>{e.path}</Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{e.message}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollRegion>
      )}
      {answer.unrecognised.length > 0 ? <Text size="sm">{t('import.unrecognised', { names: answer.unrecognised.join(', ') })}</Text> : null}
      {answer.ignored.length > 0 ? (
        <div>
          <Text size="sm">{t('import.ignored')}</Text>
          <List size="sm">
            {answer.ignored.map((line) => (
              <List.Item key={line} style={{ overflowWrap: 'anywhere' }}>
                {line}
              </List.Item>
            ))}
          </List>
        </div>
      ) : null}
    </Stack>
  );
}

export interface ThresholdDetails {
  maxDropRatio: number;
  classes: { classCode: string; active: number; dropping: number; ratio: number }[];
}

const percent = (ratio: number, language: string) => new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 1 }).format(ratio);

export function ThresholdRefusal({ details }: { details: ThresholdDetails }) {
  const { t, i18n } = useTranslation(NS);
  return (
    // A bordered card rather than a tinted Alert: its tables keep full contrast.
    <Paper withBorder p="md" radius="md" role="alert" style={{ borderColor: 'var(--mantine-color-red-9)' }}>
      <Stack gap="xs">
        <Text fw={700} c="red.9">
          {t('import.refused')}
        </Text>
        <Text size="sm">{t('import.refusedHelp', { max: Math.round(details.maxDropRatio * 1000) / 10 })}</Text>
        <ScrollRegion label={t('import.refused')} minWidth={360}>
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('import.classCode')}</Table.Th>
                <Table.Th ta="right">{t('import.active')}</Table.Th>
                <Table.Th ta="right">{t('import.dropping')}</Table.Th>
                <Table.Th ta="right">{t('import.ratio')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {details.classes.map((c) => (
                <Table.Tr key={c.classCode}>
                  <Table.Td>{c.classCode}</Table.Td>
                  <Table.Td ta="right">{c.active}</Table.Td>
                  <Table.Td ta="right">{c.dropping}</Table.Td>
                  <Table.Td ta="right">{percent(c.ratio, i18n.language)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollRegion>
        <Text size="sm">{t('import.refusedFix')}</Text>
      </Stack>
    </Paper>
  );
}
