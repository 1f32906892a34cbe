/** The company's audit log: who did what, when and from where; filtered, newest first, paged by cursor. */
import { Button, Code, Group, NativeSelect, Paper, Stack, Table, Text, TextInput } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { problemText } from '../../ui/problem-text';
import { ScrollRegion } from '../../ui/scroll-region';
import { auditPage, type AuditFilters, type Member } from './members-api';
import { MEMBERS_NS } from './strings';

const FAMILIES = ['session', 'member', 'account', 'key', 'webhook', 'settings', 'suppression'] as const;

/** A day typed in the date field, as the instant its local midnight is (the filter's from / to bound). */
function dayStart(day: string, plusDays = 0): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  const date = new Date(`${day}T00:00:00`);
  date.setDate(date.getDate() + plusDays);
  return date.toISOString();
}

export function AuditLog({ members }: { members: Member[] }) {
  const { t, i18n } = useTranslation(MEMBERS_NS);
  const { t: tc } = useTranslation();
  const [draft, setDraft] = useState({ family: '', actor: '', from: '', to: '' });
  const [filters, setFilters] = useState<AuditFilters>({});
  const log = useInfiniteQuery({
    queryKey: ['audit', filters],
    queryFn: ({ pageParam }) => auditPage(filters, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.meta.nextCursor ?? undefined,
  });

  function apply(event: FormEvent) {
    event.preventDefault();
    setFilters({
      action: draft.family ? `${draft.family}.` : undefined,
      actor: draft.actor || undefined,
      from: dayStart(draft.from),
      to: dayStart(draft.to, 1),
    });
  }

  const entries = log.data?.pages.flatMap((page) => page.data) ?? [];
  const total = log.data?.pages[0]?.meta.total;
  return (
    <Stack>
      <Paper withBorder p="md" component="form" onSubmit={apply} aria-label={t('audit.filters')}>
        <Group align="flex-end" wrap="wrap">
          <NativeSelect
            label={t('audit.action')}
            value={draft.family}
            onChange={(event) => setDraft({ ...draft, family: event.currentTarget.value })}
            data={[{ value: '', label: t('audit.anyAction') }, ...FAMILIES.map((family) => ({ value: family, label: t(`audit.families.${family}`) }))]}
          />
          <NativeSelect
            label={t('audit.actor')}
            value={draft.actor}
            onChange={(event) => setDraft({ ...draft, actor: event.currentTarget.value })}
            data={[{ value: '', label: t('audit.anyone') }, ...members.map((member) => ({ value: member.userId, label: member.name }))]}
          />
          <TextInput type="date" label={t('audit.from')} value={draft.from} onChange={(event) => setDraft({ ...draft, from: event.currentTarget.value })} />
          <TextInput type="date" label={t('audit.to')} value={draft.to} onChange={(event) => setDraft({ ...draft, to: event.currentTarget.value })} />
          <Button type="submit">{t('audit.apply')}</Button>
          <Button
            variant="default"
            onClick={() => {
              setDraft({ family: '', actor: '', from: '', to: '' });
              setFilters({});
            }}
          >
            {t('audit.clear')}
          </Button>
        </Group>
      </Paper>
      {log.isPending ? (
        <Text c="dimmed">{t('audit.loading')}</Text>
      ) : log.isError ? (
        <Text c="red.9" role="alert">
          {problemText(tc, log.error)}
        </Text>
      ) : entries.length === 0 ? (
        <Text c="dimmed">{t('audit.empty')}</Text>
      ) : (
        <>
          {total !== undefined && (
            <Text size="sm" c="dimmed" aria-live="polite">
              {t('audit.total', { count: total })}
            </Text>
          )}
          <ScrollRegion label={t('tabAudit')} minWidth={640}>
            <Table verticalSpacing="xs" striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t('audit.when')}</Table.Th>
                  <Table.Th scope="col">{t('audit.who')}</Table.Th>
                  <Table.Th scope="col">{t('audit.what')}</Table.Th>
                  <Table.Th scope="col">{t('audit.where')}</Table.Th>
                  <Table.Th scope="col">{t('audit.details')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {entries.map((entry) => (
                  <Table.Tr key={entry.id}>
                    <Table.Td>{new Date(entry.createdAt).toLocaleString(i18n.language)}</Table.Td>
                    <Table.Td>{entry.actor.email ?? t('audit.unknownActor')}</Table.Td>
                    <Table.Td>
                      <Code>{entry.action}</Code>
                    </Table.Td>
                    <Table.Td>{entry.ip ?? ''}</Table.Td>
                    <Table.Td>
                      <Text size="xs" style={{ wordBreak: 'break-word' }}>
                        {Object.keys(entry.details).length > 0 ? JSON.stringify(entry.details) : ''}
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollRegion>
          {log.hasNextPage && (
            <Button variant="default" onClick={() => void log.fetchNextPage()} loading={log.isFetchingNextPage}>
              {t('audit.more')}
            </Button>
          )}
        </>
      )}
    </Stack>
  );
}
