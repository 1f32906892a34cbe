/** A form's invites: counts per status, the status filter, the list (pages over the cursor), selection and row acts. */
import { Alert, Badge, Button, Checkbox, CopyButton, Group, Select, Stack, Table, Text } from '@mantine/core';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import { EmptyState } from '../../ui/empty-state';
import { ScrollRegion } from '../../ui/scroll-region';
import { problemText } from '../../ui/problem-text';
import { formatWhen } from '../integrations/format';
import { countsQuery, INVITE_STATUSES, INVITES, invitePage, type InviteForm, type InviteStatus } from './invites-api';
import { Loading, LoadError } from '../../ui/area-state';
import type { SendSelection } from './send-dialog';
import { NS } from './strings';
import { TimelineDrawer } from './timeline-drawer';

const STATUS_COLOR: Record<InviteStatus, string> = {
  created: 'gray.9', queued: 'blue.9', sent: 'blue.9', delivered: 'indigo.9', opened: 'cyan.9', started: 'cyan.9', responded: 'teal.9', failed: 'red.9', revoked: 'dark.6', expired: 'dark.4',
};

export function StatusBadge({ status }: { status: InviteStatus }) {
  const { t } = useTranslation(NS);
  return (
    <Badge color={STATUS_COLOR[status]} variant="filled">
      {t(`statuses.${status}`)}
    </Badge>
  );
}

interface Props {
  form: InviteForm;
  onCreate: () => void;
  onImport: () => void;
  onSend: (selection: SendSelection) => void;
}

export function InviteList({ form, onCreate, onImport, onSend }: Props) {
  const { t } = useTranslation(NS);
  const { t: tc } = useTranslation();
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<InviteStatus | null>(null);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [timeline, setTimeline] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const counts = useQuery(countsQuery(form.id));
  const list = useInfiniteQuery({
    queryKey: [...INVITES, form.id, 'list', status],
    queryFn: ({ pageParam }) => invitePage(form.id, status, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.meta.nextCursor ?? undefined,
  });
  const invites = list.data?.pages.flatMap((page) => page.data) ?? [];
  const total = list.data?.pages[0]?.meta.total ?? 0;

  const revoke = useMutation({
    mutationFn: async (ids: string[]) => (await unwrap(api.POST('/forms/{id}/invites/revoke', { params: { path: { id: form.id } }, body: { inviteIds: ids } }))).data,
    onSuccess: async (result) => {
      setSelected(new Set());
      const parts = [t('revoked', { count: result.revoked.length }), ...(result.unchanged.length ? [t('unchanged', { count: result.unchanged.length })] : [])];
      setOutcome({ ok: true, text: parts.join(' ') });
      await queryClient.invalidateQueries({ queryKey: [...INVITES, form.id] });
    },
    onError: (error) => setOutcome({ ok: false, text: problemText(tc, error) }),
  });
  const confirmRevoke = (ids: string[]) => {
    if (window.confirm(t('revokeConfirm', { count: ids.length }))) revoke.mutate(ids);
  };
  const toggle = (id: string) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const allShown = invites.length > 0 && invites.every((invite) => selected.has(invite.id));

  return (
    <Stack>
      <Group gap="xs" role="group" aria-label={t('counts')}>
        {counts.isPending ? <Loading /> : counts.isError ? <LoadError error={counts.error} retry={() => void counts.refetch()} /> : (
          INVITE_STATUSES.filter((s) => counts.data[s] > 0).map((s) => (
            <Badge key={s} color={STATUS_COLOR[s]} variant="outline" size="lg" data-testid={`count-${s}`}>
              {t(`statuses.${s}`)}: {counts.data[s]}
            </Badge>
          ))
        )}
      </Group>
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <Select
          label={t('statusFilter')}
          data={[{ value: '', label: t('allStatuses') }, ...INVITE_STATUSES.map((s) => ({ value: s, label: t(`statuses.${s}`) }))]}
          value={status ?? ''}
          onChange={(value) => {
            setSelected(new Set());
            setStatus(value ? (value as InviteStatus) : null);
          }}
          allowDeselect={false}
          w={220}
        />
        <Group gap="xs" wrap="wrap">
          <Button onClick={onCreate}>{t('actions.create')}</Button>
          <Button variant="default" onClick={onImport}>
            {t('actions.import')}
          </Button>
          <Button variant="default" onClick={() => onSend(selected.size > 0 ? { inviteIds: [...selected] } : {})}>
            {t('actions.send')}
          </Button>
          <Button variant="light" color="red.9" disabled={selected.size === 0} onClick={() => confirmRevoke([...selected])}>
            {t('actions.revokeSelected')}
          </Button>
        </Group>
      </Group>
      {selected.size > 0 && (
        <Text size="sm" aria-live="polite">
          {t('selected', { count: selected.size })}
        </Text>
      )}
      {outcome && (
        <Alert color={outcome.ok ? 'green.9' : 'red.9'} role={outcome.ok ? 'status' : 'alert'} withCloseButton onClose={() => setOutcome(null)}>
          {outcome.text}
        </Alert>
      )}
      {list.isPending ? (
        <Loading />
      ) : list.isError ? (
        <LoadError error={list.error} retry={() => void list.refetch()} />
      ) : invites.length === 0 ? (
        status ? <Text>{t('emptyFiltered')}</Text> : <EmptyState title={t('empty')} body={t('emptyBody')} />
      ) : (
        <>
          <ScrollRegion label={t("table.caption", { form: form.name })} minWidth={720}>
            <Table striped highlightOnHover>
              <Table.Caption>{t('shown', { shown: invites.length, total })}</Table.Caption>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>
                    <Checkbox
                      aria-label={t('table.selectAll')}
                      checked={allShown}
                      indeterminate={selected.size > 0 && !allShown}
                      onChange={() => setSelected(allShown ? new Set() : new Set(invites.map((invite) => invite.id)))}
                    />
                  </Table.Th>
                  <Table.Th>{t('table.contact')}</Table.Th>
                  <Table.Th>{t('table.status')}</Table.Th>
                  <Table.Th>{t('table.created')}</Table.Th>
                  <Table.Th>{t('table.actions')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {invites.map((invite) => {
                  const contact = invite.email ?? invite.phone ?? '';
                  const label = invite.name ? `${invite.name} (${contact})` : contact;
                  return (
                    <Table.Tr key={invite.id}>
                      <Table.Td>
                        <Checkbox aria-label={t('table.select', { name: label })} checked={selected.has(invite.id)} onChange={() => toggle(invite.id)} />
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm" fw={500}>{invite.name ?? contact}</Text>
                        {invite.name && <Text size="xs" c="dimmed">{contact}</Text>}
                      </Table.Td>
                      <Table.Td>
                        <StatusBadge status={invite.effectiveStatus} />
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">{formatWhen(invite.createdAt)}</Text>
                      </Table.Td>
                      <Table.Td>
                        <Group gap={4} wrap="nowrap">
                          <Button size="compact-sm" variant="subtle" onClick={() => setTimeline(invite.id)} aria-label={`${t('actions.timeline')}: ${label}`}>
                            {t('actions.timeline')}
                          </Button>
                          <CopyButton value={invite.url}>
                            {({ copied, copy }) => (
                              <Button size="compact-sm" variant="subtle" onClick={copy} aria-label={`${copied ? t('actions.copied') : t('actions.copy')}: ${label}`}>
                                {copied ? t('actions.copied') : t('actions.copy')}
                              </Button>
                            )}
                          </CopyButton>
                        </Group>
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </ScrollRegion>
          {list.hasNextPage && (
            <Button variant="default" onClick={() => void list.fetchNextPage()} loading={list.isFetchingNextPage} w="fit-content">
              {t('more')}
            </Button>
          )}
        </>
      )}
      {timeline && <TimelineDrawer inviteId={timeline} onClose={() => setTimeline(null)} onRevoke={(id) => confirmRevoke([id])} />}
    </Stack>
  );
}
