/** The treatment board: cases counted by form and flow, and the cases of the chosen status, form and flow. */
import { Anchor, Badge, Button, Group, Paper, SegmentedControl, Stack, Table, Text, Title, UnstyledButton } from '@mantine/core';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../ui/empty-state';
import { ScrollRegion } from '../../ui/scroll-region';
import { LoadError, Loading } from '../../ui/area-state';
import { NS } from './strings';
import { boardQuery, casesQuery, instantText, type CaseFilter } from './treatments-api';

const STATUSES = ['open', 'overdue', 'closed', 'all'] as const;

function Board({ filter, choose }: { filter: CaseFilter; choose: (formId: string, flowKey: string) => void }) {
  const { t } = useTranslation(NS);
  const query = useQuery(boardQuery);
  if (query.isPending) return <Loading />;
  if (query.isError) return <LoadError error={query.error} retry={() => void query.refetch()} />;
  if (query.data.length === 0) return <EmptyState title={t('board.heading')} body={t('board.empty')} />;
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="board-heading">
      <Title order={2} size="h4" id="board-heading">
        {t('board.heading')}
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        {t('board.help')}
      </Text>
      <ScrollRegion label={t('board.region')} minWidth={420}>
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('board.form')}</Table.Th>
              <Table.Th>{t('board.flow')}</Table.Th>
              <Table.Th ta="right">{t('board.open')}</Table.Th>
              <Table.Th ta="right">{t('board.overdue')}</Table.Th>
              <Table.Th ta="right">{t('board.closed')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {query.data.map((row) => {
              const chosen = filter.formId === row.formId && filter.flowKey === row.flowKey;
              return (
                <Table.Tr key={`${row.formId}/${row.flowKey}`} bg={chosen ? 'var(--mantine-color-blue-light)' : undefined}>
                  <Table.Td>
                    <UnstyledButton
                      onClick={() => choose(row.formId, row.flowKey)}
                      aria-pressed={chosen}
                      aria-label={t('board.show', { form: row.formName, flow: row.flowName })}
                      td="underline"
                    >
                      {row.formName}
                    </UnstyledButton>
                  </Table.Td>
                  <Table.Td>{row.flowName}</Table.Td>
                  <Table.Td ta="right">{row.open}</Table.Td>
                  <Table.Td ta="right">{row.overdue > 0 ? <Badge color="red.9">{row.overdue}</Badge> : 0}</Table.Td>
                  <Table.Td ta="right">{row.closed}</Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </ScrollRegion>
    </Paper>
  );
}

function CaseList({ filter }: { filter: CaseFilter }) {
  const { t, i18n } = useTranslation(NS);
  const query = useInfiniteQuery(casesQuery(filter));
  if (query.isPending) return <Loading />;
  if (query.isError) return <LoadError error={query.error} retry={() => void query.refetch()} />;
  const cases = query.data.pages.flatMap((page) => page.data);
  const total = query.data.pages[0].meta.total ?? cases.length;
  if (cases.length === 0) return <Text c="dimmed">{t('list.empty')}</Text>;
  return (
    <Stack gap="sm">
      <Text size="sm" role="status">
        {t('list.total', { count: total })}
      </Text>
      <ScrollRegion label={t('list.region')} minWidth={640}>
        <Table striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('list.number')}</Table.Th>
              <Table.Th>{t('board.form')}</Table.Th>
              <Table.Th>{t('list.step')}</Table.Th>
              <Table.Th>{t('list.responsible')}</Table.Th>
              <Table.Th>{t('list.due')}</Table.Th>
              <Table.Th>{t('list.outcome')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {cases.map((c) => (
              <Table.Tr key={c.id}>
                <Table.Td>
                  <Anchor component={Link} to={`/treatments/${c.id}`} aria-label={t('list.open', { number: c.number })}>
                    #{c.number}
                  </Anchor>{' '}
                  {c.overdue ? <Badge color="red.9">{t('status.overdue')}</Badge> : c.status === 'closed' ? <Badge color="gray.7">{t('status.closed')}</Badge> : null}
                </Table.Td>
                <Table.Td>{c.formName}</Table.Td>
                <Table.Td>
                  {c.stepIndex + 1}/{c.steps.length} {c.stepName}
                </Table.Td>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>{c.responsible}</Table.Td>
                <Table.Td>{c.dueAt ? <time dateTime={c.dueAt}>{instantText(c.dueAt, i18n.language)}</time> : '—'}</Table.Td>
                <Table.Td>{c.outcome ? t(`outcomes.${c.outcome}`) : '—'}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollRegion>
      {query.hasNextPage ? (
        <Group>
          <Button variant="light" loading={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()}>
            {t('list.more')}
          </Button>
        </Group>
      ) : null}
    </Stack>
  );
}

export function TreatmentsPage() {
  const { t } = useTranslation(NS);
  const [filter, setFilter] = useState<CaseFilter>({ status: 'open' });
  const board = useQuery(boardQuery);
  const scope = board.data?.find((row) => row.formId === filter.formId && row.flowKey === filter.flowKey);
  return (
    <Stack>
      <Title order={1}>{t('title')}</Title>
      <Board filter={filter} choose={(formId, flowKey) => setFilter((f) => ({ ...f, formId, flowKey }))} />
      <Paper withBorder p="md" radius="md" component="section" aria-labelledby="cases-heading">
        <Stack>
          <Title order={2} size="h4" id="cases-heading">
            {t('list.heading')}
          </Title>
          <SegmentedControl
            aria-label={t('list.status')}
            value={filter.status}
            onChange={(value) => setFilter((f) => ({ ...f, status: value as CaseFilter['status'] }))}
            data={STATUSES.map((value) => ({ value, label: t(`list.statuses.${value}`) }))}
            fullWidth
          />
          {scope ? (
            <Group gap="sm" wrap="wrap">
              <Text size="sm">{t('list.scope', { form: scope.formName, flow: scope.flowName })}</Text>
              <Button size="compact-sm" variant="subtle" onClick={() => setFilter((f) => ({ status: f.status }))}>
                {t('list.allForms')}
              </Button>
            </Group>
          ) : null}
          <CaseList filter={filter} />
        </Stack>
      </Paper>
    </Stack>
  );
}
