/** A form's invites: counts per status, the status filter, the list (pages over the cursor), selection and row acts. */
import { Alert, Badge, Button, Group, Select, Stack, Text } from '@mantine/core';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import { EmptyState } from '../../ui/empty-state';
import { problemText } from '../../ui/problem-text';
import { countsQuery, INVITE_STATUSES, INVITES, invitePage, type InviteForm, type InviteStatus } from './invites-api';
import { Loading, LoadError } from '../../ui/area-state';
import type { SendSelection } from './send-dialog';
import { NS } from './strings';
import { TimelineDrawer } from './timeline-drawer';
import { InviteTable } from './invite-table';
import { STATUS_COLOR } from './status-badge';

interface Props {
  form: InviteForm;
  onCreate: () => void;
  onImport: () => void;
  onSend: (selection: SendSelection) => void;
}

/** The most ids the revoke route takes in one call (the API's bound on inviteIds). */
const REVOKE_CHUNK = 1_000;

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
  const invites = useMemo(() => list.data?.pages.flatMap((page) => page.data) ?? [], [list.data]);
  const total = list.data?.pages[0]?.meta.total ?? 0;

  const revoke = useMutation({
    // The route takes up to REVOKE_CHUNK ids a call; a larger selection (every loaded row) goes in parts.
    mutationFn: async (ids: string[]) => {
      const result = { revoked: [] as string[], unchanged: [] as string[] };
      for (let at = 0; at < ids.length; at += REVOKE_CHUNK) {
        const part = (await unwrap(api.POST('/forms/{id}/invites/revoke', { params: { path: { id: form.id } }, body: { inviteIds: ids.slice(at, at + REVOKE_CHUNK) } }))).data;
        result.revoked.push(...part.revoked);
        result.unchanged.push(...part.unchanged);
      }
      return result;
    },
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
  const allLoaded = invites.length > 0 && invites.every((invite) => selected.has(invite.id));

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
          <Button variant="outline" color="red.9" disabled={selected.size === 0} onClick={() => confirmRevoke([...selected])}>
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
        <InviteTable
          formName={form.name}
          invites={invites}
          total={total}
          pages={list}
          selected={selected}
          allLoaded={allLoaded}
          onToggle={toggle}
          onSelectAll={() => setSelected(allLoaded ? new Set() : new Set(invites.map((invite) => invite.id)))}
          onTimeline={setTimeline}
        />
      )}
      {timeline && <TimelineDrawer inviteId={timeline} onClose={() => setTimeline(null)} onRevoke={(id) => confirmRevoke([id])} />}
    </Stack>
  );
}
