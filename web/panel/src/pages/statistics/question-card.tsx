/**
 * One question's figures at a glance, with a table view of the same numbers (every chart has one):
 * choice shares and mean ranks as bars, the NPS split with its score, numeric histograms, matrix
 * heat tables, answered counts. With a second period, each bar has its twin.
 */
import { Box, Group, Paper, SegmentedControl, Stack, Table, Text, Title } from '@mantine/core';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ScrollRegion } from '../../ui/scroll-region';
import type { QuestionFigures } from './statistics-api';
import { STATISTICS_NS } from './strings';

const MAX_BARS = 12;
const COLORS = ['var(--mantine-color-blue-7)', 'var(--mantine-color-orange-8)'];

/** A labelled value of each period: what one bar (and one table row) shows. */
interface Item {
  label: string;
  values: (number | null)[];
  /** the bar's length in [0, 1] per period */
  lengths: number[];
  text: string[];
}

function percent(language: string, share: number | undefined): string {
  return new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 1 }).format(share ?? 0);
}

function number(language: string, value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : new Intl.NumberFormat(language, { maximumFractionDigits: 2 }).format(value);
}

function itemsOf(figures: (QuestionFigures | undefined)[], language: string, t: (key: string) => string): { items: Item[]; header: string; valueHeader: string } | null {
  const first = figures[0]!;
  const optionLabel = (name: string, id: string) => (first.type === 'BOOLEAN' ? (id === 'true' ? t('yes') : t('no')) : name);
  if (first.type === 'RANKING' && first.options) {
    const max = first.options.length || 1;
    return {
      header: t('option'),
      valueHeader: t('meanRank'),
      items: first.options.map((option) => {
        const values = figures.map((f) => f?.options?.find((o) => o.id === option.id)?.meanRank ?? null);
        return { label: option.name, values, lengths: values.map((v) => (v === null ? 0 : (max - v + 1) / max)), text: values.map((v) => number(language, v)) };
      }),
    };
  }
  if (first.options) {
    return {
      header: t('option'),
      valueHeader: t('share'),
      items: first.options.map((option) => {
        const found = figures.map((f) => f?.options?.find((o) => o.id === option.id));
        return {
          label: optionLabel(option.name, option.id),
          values: found.map((o) => o?.count ?? 0),
          lengths: found.map((o) => o?.share ?? 0),
          text: found.map((o) => `${percent(language, o?.share)} (${o?.count ?? 0})`),
        };
      }),
    };
  }
  if (first.histogram) {
    const edges = [...new Map(figures.flatMap((f) => f?.histogram ?? []).map((b) => [`${b.from}|${b.to}`, b])).values()].sort((a, b) => a.from - b.from);
    // NUMBER's sketch bins are narrow (2%): runs of them are summed into at most MAX_BARS bars, exact counts still.
    const run = Math.ceil(edges.length / MAX_BARS);
    const bins = Array.from({ length: Math.ceil(edges.length / run) }, (_, i) => edges.slice(i * run, (i + 1) * run)).map((group) => ({ from: group[0].from, to: group.at(-1)!.to, members: group }));
    const countIn = (f: QuestionFigures | undefined, members: typeof edges) => members.reduce((sum, m) => sum + (f?.histogram?.find((b) => b.from === m.from && b.to === m.to)?.count ?? 0), 0);
    const most = Math.max(1, ...figures.flatMap((f) => bins.map((bin) => countIn(f, bin.members))));
    return {
      header: t('bin'),
      valueHeader: t('count'),
      items: bins.map((bin) => {
        const values = figures.map((f) => countIn(f, bin.members));
        return {
          label: bin.from === bin.to ? number(language, bin.from) : `${number(language, bin.from)} – ${number(language, bin.to)}`,
          values,
          lengths: values.map((v) => v / most),
          text: values.map((v) => number(language, v)),
        };
      }),
    };
  }
  return null;
}

function Bars({ items, periods }: { items: Item[]; periods: string[] }) {
  return (
    <Stack gap={6}>
      {items.map((item) => (
        <Box key={item.label}>
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {item.label}
          </Text>
          {item.lengths.map((length, p) => (
            <Group key={p} gap="xs" wrap="nowrap">
              <Box aria-hidden style={{ flex: 1, background: 'var(--mantine-color-gray-1)', borderRadius: 3, height: 14 }}>
                <Box style={{ width: `${Math.max(0, Math.min(1, length)) * 100}%`, background: COLORS[p], height: '100%', borderRadius: 3 }} />
              </Box>
              <Text size="sm" miw={96} ta="right">
                {periods.length > 1 ? `${periods[p]}: ` : ''}
                {item.text[p]}
              </Text>
            </Group>
          ))}
        </Box>
      ))}
    </Stack>
  );
}

function ItemsTable({ items, header, valueHeader, periods, caption }: { items: Item[]; header: string; valueHeader: string; periods: string[]; caption: string }) {
  return (
    <ScrollRegion label={caption} minWidth={280}>
      <Table>
        <caption style={{ captionSide: 'top', textAlign: 'left' }}>{caption}</caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{header}</Table.Th>
            {periods.map((period) => (
              <Table.Th key={period} scope="col">
                {periods.length > 1 ? `${valueHeader} (${period})` : valueHeader}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((item) => (
            <Table.Tr key={item.label}>
              <Table.Th scope="row" fw={400}>
                {item.label}
              </Table.Th>
              {item.text.map((text, p) => (
                <Table.Td key={p}>{text}</Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollRegion>
  );
}

function NpsSplit({ figures, periods, asTable, caption }: { figures: (QuestionFigures | undefined)[]; periods: string[]; asTable: boolean; caption: string }) {
  const { t, i18n } = useTranslation(STATISTICS_NS);
  const parts = ['promoters', 'passives', 'detractors'] as const;
  const colors = ['var(--mantine-color-green-8)', 'var(--mantine-color-gray-6)', 'var(--mantine-color-red-8)'];
  if (asTable) {
    const items: Item[] = [
      ...parts.map((part) => ({ label: t(part), values: [], lengths: [], text: figures.map((f) => number(i18n.language, f?.nps?.[part])) })),
      { label: t('score'), values: [], lengths: [], text: figures.map((f) => number(i18n.language, f?.nps?.score)) },
    ];
    return <ItemsTable items={items} header={t('figure')} valueHeader={t('count')} periods={periods} caption={caption} />;
  }
  return (
    <Stack gap="xs">
      {figures.map((f, p) => {
        const total = (f?.nps?.promoters ?? 0) + (f?.nps?.passives ?? 0) + (f?.nps?.detractors ?? 0) || 1;
        return (
          <Box key={p}>
            <Text size="sm" fw={600}>
              {periods.length > 1 ? `${periods[p]} — ` : ''}
              {t('score')}: {number(i18n.language, f?.nps?.score)}
            </Text>
            <Group gap={0} wrap="nowrap" aria-hidden h={16} style={{ borderRadius: 3, overflow: 'hidden' }}>
              {parts.map((part, i) => (
                <Box key={part} h="100%" style={{ width: `${(100 * (f?.nps?.[part] ?? 0)) / total}%`, background: colors[i] }} />
              ))}
            </Group>
            <Text size="sm">{parts.map((part) => `${t(part)}: ${f?.nps?.[part] ?? 0}`).join(' · ')}</Text>
          </Box>
        );
      })}
    </Stack>
  );
}

function MatrixHeat({ figures, heat, caption }: { figures: QuestionFigures; heat: boolean; caption: string }) {
  const { t } = useTranslation(STATISTICS_NS);
  const rows = figures.rows ?? [];
  const columns = rows[0]?.columns ?? [];
  const most = Math.max(1, ...rows.flatMap((r) => r.columns.map((c) => c.count)));
  return (
    <ScrollRegion label={caption} minWidth={Math.max(280, 120 + columns.length * 90)}>
      <Table withTableBorder withColumnBorders>
        <caption style={{ captionSide: 'top', textAlign: 'left' }}>{caption}</caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{t('row')}</Table.Th>
            {columns.map((c) => (
              <Table.Th key={c.id} scope="col">
                {c.name}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.id}>
              <Table.Th scope="row" fw={400}>
                {row.name}
              </Table.Th>
              {row.columns.map((c) => (
                // white to light blue by count, kept light enough for the number to stay readable (contrast)
                <Table.Td key={c.id} ta="center" style={heat ? { background: `rgba(25, 113, 194, ${(0.35 * c.count) / most})` } : undefined}>
                  {c.count}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollRegion>
  );
}

export function QuestionCard({ figures, periods }: { figures: (QuestionFigures | undefined)[]; periods: string[] }) {
  const { t, i18n } = useTranslation(STATISTICS_NS);
  const [view, setView] = useState<'chart' | 'table'>('chart');
  const id = useId();
  const first = figures[0]!;
  const shaped = itemsOf(figures, i18n.language, t);
  const hasChart = Boolean(shaped || first.nps || first.rows);
  const caption = first.name;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby={id}>
      <Group justify="space-between" align="flex-start" mb="xs" wrap="wrap">
        <Box style={{ minWidth: 0, flex: 1 }}>
          <Title order={3} size="h5" id={id} style={{ overflowWrap: 'anywhere' }}>
            {first.name}
          </Title>
          <Text size="sm" c="dimmed">
            {figures.map((f, p) => `${periods.length > 1 ? `${periods[p]}: ` : ''}${t('answered', { n: number(i18n.language, f?.answered ?? 0) })}`).join(' · ')}
          </Text>
        </Box>
        {hasChart && (
          <SegmentedControl
            size="xs"
            aria-label={t('view', { question: first.name })}
            value={view}
            onChange={(value) => setView(value as 'chart' | 'table')}
            data={[
              { value: 'chart', label: t('chart') },
              { value: 'table', label: t('table') },
            ]}
          />
        )}
      </Group>
      {!hasChart && <Text size="sm">{t('noFigures')}</Text>}
      {first.nps && <NpsSplit figures={figures} periods={periods} asTable={view === 'table'} caption={caption} />}
      {first.rows && <MatrixHeat figures={first} heat={view === 'chart'} caption={caption} />}
      {shaped && !first.nps && (view === 'chart' ? <Bars items={shaped.items} periods={periods} /> : <ItemsTable {...shaped} periods={periods} caption={caption} />)}
      {first.mean !== undefined && (
        <Text size="sm" mt="xs">
          {figures
            .map((f, p) => `${periods.length > 1 ? `${periods[p]}: ` : ''}${t('mean')} ${number(i18n.language, f?.mean)} · ${t('median')} ${number(i18n.language, f?.median)} · ${t('min')} ${number(i18n.language, f?.min)} · ${t('max')} ${number(i18n.language, f?.max)}`)
            .join(' | ')}
        </Text>
      )}
    </Paper>
  );
}
