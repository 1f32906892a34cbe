/**
 * A form's responses as a table over the keyset scan: TanStack Table draws the chosen columns,
 * TanStack Virtual renders only the rows in view (spacer rows keep the native table for screen
 * readers), and the next page is read when the view nears the last loaded row, so a million
 * responses cost what is on screen.
 */
import { Anchor, Box, Group, Table, Text } from '@mantine/core';
import { tableFeatures, useTable, type ColumnDef } from '@tanstack/react-table';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect, useMemo } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { LoadError, Loading } from '../../ui/area-state';
import { LoadingMore, SpacerRow, useCursorRows } from '../../ui/cursor-rows';
import { answerText } from './answer-text';
import { questionsOf, scanPage, type Cut, type DescribedForm, type ResponseItem } from './responses-api';
import { RESPONSES_NS } from './strings';

const features = tableFeatures({});
const ROW_HEIGHT = 41;

/** The columns a person may choose: received, respondent, each dim, each question (ids as the chooser keeps them). */
export function columnChoices(form: DescribedForm, t: TFunction) {
  return [
    { value: 'createdAt', label: t('columns.createdAt') },
    { value: 'respondent', label: t('columns.respondent') },
    ...form.dims.map((dim) => ({ value: `dim:${dim.key}`, label: t('columns.dim', { key: dim.key }) })),
    ...questionsOf(form).map((q) => ({ value: `q:${q.id}`, label: q.name })),
  ];
}

export function defaultColumns(form: DescribedForm): string[] {
  return ['createdAt', 'respondent', ...questionsOf(form).slice(0, 3).map((q) => `q:${q.id}`)];
}

function useColumns(form: DescribedForm, chosen: string[]): ColumnDef<typeof features, ResponseItem>[] {
  const { t, i18n } = useTranslation(RESPONSES_NS);
  return useMemo(() => {
    const questions = new Map(questionsOf(form).map((q) => [`q:${q.id}`, q]));
    return chosen.flatMap((id): ColumnDef<typeof features, ResponseItem>[] => {
      if (id === 'createdAt') {
        return [
          {
            id,
            header: t('columns.createdAt'),
            cell: ({ row }) => (
              <Anchor renderRoot={(props) => <Link {...props} to="/responses/$responseId" params={{ responseId: row.original.id }} />}>
                {new Date(row.original.createdAt).toLocaleString(i18n.language, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' })}
              </Anchor>
            ),
          },
        ];
      }
      if (id === 'respondent') {
        return [{ id, header: t('columns.respondent'), cell: ({ row }) => row.original.respondent?.name ?? row.original.respondent?.email ?? row.original.respondent?.externalId ?? '—' }];
      }
      if (id.startsWith('dim:')) {
        const key = id.slice(4);
        return [{ id, header: t('columns.dim', { key }), cell: ({ row }) => row.original.dims[key] ?? '' }];
      }
      const question = questions.get(id);
      return question ? [{ id, header: question.name, cell: ({ row }) => answerText(t, question, row.original.answers?.[question.id]) }] : [];
    });
  }, [form, chosen, t, i18n.language]);
}

export function ResponsesTable({ form, cut, chosen, onError }: { form: DescribedForm; cut: Cut; chosen: string[]; onError: (error: unknown) => void }) {
  const { t, i18n } = useTranslation(RESPONSES_NS);
  const scan = useInfiniteQuery({
    queryKey: ['responses', 'scan', form.id, cut],
    queryFn: ({ pageParam }) => scanPage(form.id, cut, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.meta.nextCursor ?? undefined,
  });
  useEffect(() => onError(scan.error), [scan.error, onError]);
  const rows = useMemo(() => scan.data?.pages.flatMap((page) => page.data) ?? [], [scan.data]);
  const total = scan.data?.pages[0]?.meta.total ?? 0;
  const columns = useColumns(form, chosen);
  const table = useTable({ features, columns, data: rows, getRowId: (row) => row.id });

  const { scroller, items, before, after } = useCursorRows({ count: rows.length, rowHeight: ROW_HEIGHT, overscan: 12, readAhead: 20, pages: scan });

  if (scan.isPending) return <Loading />;
  if (scan.isError) return <LoadError error={scan.error} retry={() => void scan.refetch()} />;
  if (rows.length === 0) return <Text role="status">{t('table.empty')}</Text>;

  const modelRows = table.getRowModel().rows;
  const span = Math.max(columns.length, 1);
  return (
    <Box>
      <Group justify="space-between" mb="xs">
        <Text role="status" fw={500}>
          {t('table.count', { count: total, n: total.toLocaleString(i18n.language) })}
        </Text>
        <Text size="sm" c="dimmed">
          {t('table.shown', { loaded: rows.length.toLocaleString(i18n.language), n: total.toLocaleString(i18n.language) })}
        </Text>
      </Group>
      <Box ref={scroller} role="region" aria-label={t('table.label', { form: form.name })} tabIndex={0} pos="relative" h="min(60vh, 560px)" style={{ overflow: 'auto' }}>
        <Table striped highlightOnHover stickyHeader miw={Math.max(360, columns.length * 180)} aria-rowcount={total + 1}>
          <Table.Thead>
            {table.getHeaderGroups().map((group) => (
              <Table.Tr key={group.id}>
                {group.headers.map((header) => (
                  <Table.Th key={header.id} scope="col">
                    <table.FlexRender header={header} />
                  </Table.Th>
                ))}
              </Table.Tr>
            ))}
          </Table.Thead>
          <Table.Tbody>
            <SpacerRow height={before} span={span} />
            {items.map((item) => {
              const row = modelRows[item.index];
              return (
                <Table.Tr key={row.id} data-index={item.index} aria-rowindex={item.index + 2} h={ROW_HEIGHT}>
                  {row.getAllCells().map((cell) => (
                    <Table.Td key={cell.id} style={{ whiteSpace: 'nowrap', maxWidth: 320, overflow: 'hidden', textOverflow: 'ellipsis' }}>
                      <table.FlexRender cell={cell} />
                    </Table.Td>
                  ))}
                </Table.Tr>
              );
            })}
            <SpacerRow height={after} span={span} />
          </Table.Tbody>
        </Table>
      </Box>
      <LoadingMore shown={scan.isFetchingNextPage} text={t('table.loadingMore')} />
    </Box>
  );
}
