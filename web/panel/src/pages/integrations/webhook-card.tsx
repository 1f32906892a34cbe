/**
 * One subscription: its state, the Test button (a ping through the normal pipeline with an optional
 * message, whose delivery is shown as it settles), edit its URL and types, enable or disable, rotate
 * the secret, delete, and its delivery log.
 */
import { Badge, Button, Group, Paper, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import { problemText } from '../../ui/problem-text';
import { AttemptList, DeliveryStatus } from './delivery-log';
import { formatWhen } from './format';
import { DELIVERIES, pingDeliveryQuery, WEBHOOKS, type Webhook } from './integrations-api';
import type { OnceSecret } from './secret-reveal';
import { Dialog } from './dialog';
import { WebhookForm } from './webhook-form';
import { NAMESPACE } from './strings';
import { ProblemAlert } from '../../ui/problem-alert';

/** The ping's delivery, asked for every second while it is due (see pingDeliveryQuery). */
function TestDelivery({ webhook, eventId }: { webhook: Webhook; eventId: string }) {
  const { t } = useTranslation(NAMESPACE);
  const delivery = useQuery(pingDeliveryQuery({ subscriptionId: webhook.id, eventId }));
  const first = delivery.data?.[0];
  return (
    <Paper withBorder p="sm" aria-live="polite" data-testid="test-delivery">
      <Group gap="sm" mb="xs">
        <Text fw={500}>{t('webhooks.testDelivery')}</Text>
        {first ? <DeliveryStatus delivery={first} /> : <Text size="sm">{t('loading')}</Text>}
      </Group>
      {first && <AttemptList delivery={first} />}
    </Paper>
  );
}

type Confirm = 'rotate' | 'delete' | null;

/** The ping's data.message is bounded by the server (MAX_PING_MESSAGE). */
const MAX_TEST_MESSAGE = 500;

export function WebhookCard({ webhook, onSecret, onShowLog, showingLog }: { webhook: Webhook; onSecret: (secret: OnceSecret) => void; onShowLog: () => void; showingLog: boolean }) {
  const { t } = useTranslation(NAMESPACE);
  const { t: tc } = useTranslation();
  const queryClient = useQueryClient();
  const [pingEvent, setPingEvent] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<Confirm>(null);
  const [editing, setEditing] = useState(false);
  const [testMessage, setTestMessage] = useState('');
  const params = { params: { path: { id: webhook.id } } };
  const refresh = () => queryClient.invalidateQueries({ queryKey: WEBHOOKS });

  const ping = useMutation({
    mutationFn: async () => (await unwrap(api.POST('/webhooks/{id}/ping', { ...params, body: testMessage.trim() ? { message: testMessage } : {} }))).data,
    onSuccess: async ({ eventId }) => {
      setPingEvent(eventId);
      await queryClient.invalidateQueries({ queryKey: DELIVERIES });
    },
  });
  const toggle = useMutation({
    mutationFn: async () => (await unwrap(webhook.enabled ? api.POST('/webhooks/{id}/disable', params) : api.POST('/webhooks/{id}/enable', params))).data,
    onSuccess: refresh,
  });
  const rotate = useMutation({
    mutationFn: async () => {
      const { subscription, secret } = (await unwrap(api.POST('/webhooks/{id}/rotate-secret', params))).data;
      // the secret goes straight to the shown-once dialog: never into the mutation's data (TanStack Query's cache)
      setConfirm(null);
      onSecret({
        title: t('webhooks.rotatedTitle'),
        label: t('webhooks.secret'),
        value: secret,
        note: subscription.previousSecretExpiresAt ? t('webhooks.rotatedBody', { until: formatWhen(subscription.previousSecretExpiresAt) }) : undefined,
      });
      return subscription;
    },
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: async () => (await unwrap(api.DELETE('/webhooks/{id}', params))).data,
    onSuccess: async () => {
      setConfirm(null);
      await refresh();
    },
  });
  const failed = [ping, toggle].find((mutation) => mutation.isError);
  const dialogFailed = confirm === 'rotate' ? rotate : remove;

  return (
    <Paper withBorder p="md" radius="md" component="article" aria-label={webhook.url} data-webhook-id={webhook.id}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" wrap="wrap">
          <Stack gap={4} style={{ minWidth: 0, flex: '1 1 14rem' }}>
            <Text fw={600} style={{ wordBreak: 'break-all' }}>
              {webhook.url}
            </Text>
            {webhook.description && <Text size="sm">{webhook.description}</Text>}
            <Text size="sm" c="dimmed">
              {t('webhooks.types')}: {webhook.types.includes('*') ? t('webhooks.allTypes') : webhook.types.join(', ')}
            </Text>
          </Stack>
          <Badge color={webhook.enabled ? 'green' : 'gray'} variant="light" c="dark.9">
            {webhook.enabled ? t('webhooks.enabled') : t('webhooks.disabled')}
          </Badge>
        </Group>
        {!webhook.enabled && webhook.disabledReason && <Text size="sm">{t(`webhooks.disabledBecause.${webhook.disabledReason}`)}</Text>}
        {webhook.failingSince && (
          <Text size="sm" c="red.8">
            {t('webhooks.failingSince', { when: formatWhen(webhook.failingSince) })}
          </Text>
        )}
        {failed && (
          <ProblemAlert>
            {problemText(tc, failed.error)}
          </ProblemAlert>
        )}
        {webhook.enabled && (
          <TextInput
            size="xs"
            label={t('webhooks.testMessage')}
            description={t('webhooks.testMessageHelp')}
            maxLength={MAX_TEST_MESSAGE}
            value={testMessage}
            onChange={(event) => setTestMessage(event.currentTarget.value)}
            style={{ maxWidth: '28rem' }}
          />
        )}
        <Group gap="xs" wrap="wrap" role="group" aria-label={t('webhooks.actionsFor', { url: webhook.url })}>
          <Button size="xs" onClick={() => ping.mutate()} loading={ping.isPending} disabled={!webhook.enabled}>
            {t('webhooks.test')}
          </Button>
          <Button size="xs" variant="default" onClick={onShowLog} aria-pressed={showingLog}>
            {t('webhooks.deliveries')}
          </Button>
          <Button size="xs" variant="default" onClick={() => setEditing(true)}>
            {t('webhooks.edit')}
          </Button>
          <Button size="xs" variant="default" onClick={() => toggle.mutate()} loading={toggle.isPending}>
            {webhook.enabled ? t('webhooks.disable') : t('webhooks.enable')}
          </Button>
          <Button size="xs" variant="default" onClick={() => setConfirm('rotate')}>
            {t('webhooks.rotate')}
          </Button>
          <Button size="xs" variant="default" c="red.9" onClick={() => setConfirm('delete')}>
            {t('webhooks.delete')}
          </Button>
        </Group>
        {pingEvent && <TestDelivery webhook={webhook} eventId={pingEvent} />}
      </Stack>

      <Dialog opened={editing} onClose={() => setEditing(false)} title={t('webhooks.editTitle')} size="lg">
        <WebhookForm editing={webhook} onSaved={() => setEditing(false)} onCancel={() => setEditing(false)} />
      </Dialog>

      <Dialog opened={confirm !== null} onClose={() => setConfirm(null)} title={confirm === 'rotate' ? t('webhooks.rotateTitle') : t('webhooks.deleteTitle')}>
        <Stack>
          <Text style={{ wordBreak: 'break-word' }}>{confirm === 'rotate' ? t('webhooks.rotateBody') : t('webhooks.deleteBody', { url: webhook.url })}</Text>
          {dialogFailed.isError && (
            <ProblemAlert>
              {problemText(tc, dialogFailed.error)}
            </ProblemAlert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirm(null)}>
              {t('cancel')}
            </Button>
            {confirm === 'rotate' ? (
              <Button loading={rotate.isPending} onClick={() => rotate.mutate()}>
                {t('webhooks.rotateConfirm')}
              </Button>
            ) : (
              <Button color="red.9" loading={remove.isPending} onClick={() => remove.mutate()}>
                {t('webhooks.deleteConfirm')}
              </Button>
            )}
          </Group>
        </Stack>
      </Dialog>
    </Paper>
  );
}
