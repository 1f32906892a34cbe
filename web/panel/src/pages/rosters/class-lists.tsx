/** The Classes and Class groups tabs: paged tables of what the rosters hold. */
import { Pagination, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadError, Loading } from '../../ui/area-state';
import { ScrollRegion } from '../../ui/scroll-region';
import { classesQuery, groupsQuery } from './rosters-api';
import { NS } from './strings';

function Pages({ page, totalPages, onChange }: { page: number; totalPages: number; onChange: (page: number) => void }) {
  const { t } = useTranslation(NS);
  return totalPages > 1 ? <Pagination total={totalPages} value={page} onChange={onChange} aria-label={t('pages')} size="sm" /> : null;
}

export function ClassesPanel() {
  const { t } = useTranslation(NS);
  const [page, setPage] = useState(1);
  const query = useQuery(classesQuery(page));
  if (query.isPending) return <Loading />;
  if (query.isError) return <LoadError error={query.error} retry={() => void query.refetch()} />;
  if (query.data.meta.total === 0) return <Text c="dimmed">{t('classes.empty')}</Text>;
  return (
    <Stack>
      <ScrollRegion label={t('classes.region')} minWidth={720}>
        <Table striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('classes.code')}</Table.Th>
              <Table.Th>{t('classes.name')}</Table.Th>
              <Table.Th>{t('classes.group')}</Table.Th>
              <Table.Th>{t('classes.course')}</Table.Th>
              <Table.Th>{t('classes.unit')}</Table.Th>
              <Table.Th>{t('classes.counts')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {query.data.data.map((c) => (
              <Table.Tr key={c.id}>
                <Table.Td>{c.code}</Table.Td>
                <Table.Td>{c.name}</Table.Td>
                <Table.Td>{c.classGroup?.name ?? '—'}</Table.Td>
                <Table.Td>{c.course.name}</Table.Td>
                <Table.Td>{c.orgUnit.name}</Table.Td>
                <Table.Td>
                  {c.enrolled} / {c.completed} / {c.dropped}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollRegion>
      <Pages page={page} totalPages={query.data.meta.totalPages} onChange={setPage} />
    </Stack>
  );
}

export function GroupsPanel() {
  const { t } = useTranslation(NS);
  const [page, setPage] = useState(1);
  const query = useQuery(groupsQuery(page));
  if (query.isPending) return <Loading />;
  if (query.isError) return <LoadError error={query.error} retry={() => void query.refetch()} />;
  if (query.data.meta.total === 0) return <Text c="dimmed">{t('groups.empty')}</Text>;
  return (
    <Stack>
      <ScrollRegion label={t('groups.region')} minWidth={480}>
        <Table striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('groups.code')}</Table.Th>
              <Table.Th>{t('groups.name')}</Table.Th>
              <Table.Th>{t('groups.period')}</Table.Th>
              <Table.Th ta="right">{t('groups.classes')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {query.data.data.map((g) => (
              <Table.Tr key={g.id}>
                <Table.Td>{g.code}</Table.Td>
                <Table.Td>{g.name}</Table.Td>
                <Table.Td>{g.startsOn || g.endsOn ? `${g.startsOn ?? '…'} – ${g.endsOn ?? '…'}` : '—'}</Table.Td>
                <Table.Td ta="right">{g.classCount}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollRegion>
      <Pages page={page} totalPages={query.data.meta.totalPages} onChange={setPage} />
    </Stack>
  );
}
