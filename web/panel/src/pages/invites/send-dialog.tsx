/**
 * A send: who (the selection, an import, statuses, or all), the channel, now or at a time. The
 * person first sees what it will do (the send service's dry run: what is queued, what is
 * skipped and why, the quota it needs against what is left), then confirms.
 */
import { Alert, Button, Group, List, Modal, MultiSelect, Radio, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { ApiProblem, unwrap } from '../../api/errors';
import { problemText } from '../../ui/problem-text';
import { localToInstant } from '../integrations/format';
import { INVITE_STATUSES, INVITES, type DryRun, type InviteStatus, type SendBody } from './invites-api';
import { NS } from './strings';
import { ProblemAlert } from '../../ui/problem-alert';

export interface SendSelection {
  inviteIds?: string[];
  batchId?: string;
}
type Who = 'selected' | 'batch' | 'statuses' | 'all';

export function SendDialog({ formId, selection, onClose }: { formId: string; selection: SendSelection; onClose: () => void }) {
  const { t } = useTranslation(NS);
  const { t: tc } = useTranslation();
  const queryClient = useQueryClient();
  const [who, setWho] = useState<Who>(selection.inviteIds ? 'selected' : selection.batchId ? 'batch' : 'all');
  const [statuses, setStatuses] = useState<InviteStatus[]>(['created']);
  const [channel, setChannel] = useState<'email' | 'whatsapp'>('email');
  const [later, setLater] = useState(false);
  const [at, setAt] = useState('');
  const [preview, setPreview] = useState<DryRun | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const body = (): SendBody => ({
    channel,
    ...(who === 'selected' ? { inviteIds: selection.inviteIds } : {}),
    ...(who === 'batch' ? { batchId: selection.batchId } : {}),
    ...(who === 'statuses' ? { filter: { statuses } } : {}),
    ...(later && localToInstant(at) ? { scheduleAt: localToInstant(at)! } : {}),
  });
  const describe = (error: unknown) =>
    error instanceof ApiProblem && ['QUOTA_EXCEEDED', 'CHANNEL_NOT_CONFIGURED', 'TEMPLATE_REQUIRED'].includes(error.code) ? t(`send.problems.${error.code}`) : problemText(tc, error);
  const changed = <T,>(set: (value: T) => void) => (value: T) => {
    set(value);
    setPreview(null);
    setDone(null);
  };

  const dryRun = useMutation({
    mutationFn: async () => (await unwrap(api.POST('/forms/{id}/invites/send', { params: { path: { id: formId } }, body: { ...body(), dryRun: true } }))).data as DryRun,
    onSuccess: (result) => {
      setProblem(null);
      setPreview(result);
    },
    onError: (error) => setProblem(describe(error)),
  });
  const send = useMutation({
    mutationFn: async () => (await unwrap(api.POST('/forms/{id}/invites/send', { params: { path: { id: formId } }, body: body() }))).data,
    onSuccess: async (result) => {
      setProblem(null);
      setPreview(null);
      setDone(t('send.sent', { count: result.queued }));
      await queryClient.invalidateQueries({ queryKey: [...INVITES, formId] });
    },
    onError: (error) => setProblem(describe(error)),
  });

  const skips = new Map<string, number>();
  for (const skip of preview?.skipped ?? []) skips.set(skip.reason, (skips.get(skip.reason) ?? 0) + 1);
  const options: Who[] = [...(selection.inviteIds ? ['selected' as const] : []), ...(selection.batchId ? ['batch' as const] : []), 'statuses', 'all'];

  return (
    <Modal opened onClose={onClose} title={t('send.title')} size="lg" closeButtonProps={{ 'aria-label': t('close') }}>
      <Stack>
        <Radio.Group label={t('send.selection')} value={who} onChange={changed((value: string) => setWho(value as Who))}>
          <Stack gap="xs" mt="xs">
            {options.map((option) => (
              <Radio key={option} value={option} label={t(`send.selectionOptions.${option}`, { count: selection.inviteIds?.length ?? 0 })} />
            ))}
          </Stack>
        </Radio.Group>
        {who === 'statuses' && (
          <MultiSelect
            label={t('send.statuses')}
            data={INVITE_STATUSES.map((s) => ({ value: s, label: t(`statuses.${s}`) }))}
            value={statuses}
            onChange={changed((value: string[]) => setStatuses(value as InviteStatus[]))}
          />
        )}
        <div>
          <Text size="sm" fw={500} id="send-channel">{t('send.channel')}</Text>
          <SegmentedControl
            aria-labelledby="send-channel"
            value={channel}
            onChange={changed((value: string) => setChannel(value as 'email' | 'whatsapp'))}
            data={[{ value: 'email', label: t('send.channels.email') }, { value: 'whatsapp', label: t('send.channels.whatsapp') }]}
          />
        </div>
        <div>
          <Text size="sm" fw={500} id="send-when">{t('send.when')}</Text>
          <SegmentedControl
            aria-labelledby="send-when"
            value={later ? 'later' : 'now'}
            onChange={changed((value: string) => setLater(value === 'later'))}
            data={[{ value: 'now', label: t('send.now') }, { value: 'later', label: t('send.later') }]}
          />
        </div>
        {later && <TextInput label={t('send.at')} type="datetime-local" value={at} onChange={(event) => changed(setAt)(event.currentTarget.value)} />}
        {problem && <ProblemAlert>{problem}</ProblemAlert>}
        {done && <Alert color="green.9" role="status">{done}</Alert>}
        {preview && (
          <Alert variant="light" color={preview.quota.fits ? 'blue' : 'red'} role="status" data-testid="send-preview">
            <Stack gap={4}>
              <Text>{t('send.willQueue', { count: preview.queued })}</Text>
              <Text>{t('send.quota', preview.quota)}</Text>
              {!preview.quota.fits && <Text fw={600}>{t('send.noRoom')}</Text>}
              {skips.size > 0 && (
                <>
                  <Text>{t('send.skips')}:</Text>
                  <List size="sm">
                    {[...skips].map(([reason, n]) => (
                      <List.Item key={reason}>{t(`send.skipReasons.${reason}`)}: {n}</List.Item>
                    ))}
                  </List>
                </>
              )}
            </Stack>
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>{t('close')}</Button>
          <Button variant="default" onClick={() => dryRun.mutate()} loading={dryRun.isPending} disabled={who === 'statuses' && statuses.length === 0}>
            {t('send.preview')}
          </Button>
          <Button onClick={() => send.mutate()} loading={send.isPending} disabled={!preview || !preview.quota.fits || preview.queued === 0}>
            {t('send.confirm', { count: preview?.queued ?? 0 })}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
