/** Webhooks: the subscriptions, the new-webhook dialog (secret shown once) and the chosen one's delivery log. */
import { Button, Group, Loader, Stack, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../ui/empty-state';
import { problemText } from '../../ui/problem-text';
import { WebhookForm } from './webhook-form';
import { DeliveryLog } from './delivery-log';
import { webhooksQuery } from './integrations-api';
import { SecretReveal, type OnceSecret } from './secret-reveal';
import { Dialog } from './dialog';
import { NAMESPACE } from './strings';
import { WebhookCard } from './webhook-card';
import { ProblemAlert } from '../../ui/problem-alert';

export function WebhooksSection() {
  const { t } = useTranslation(NAMESPACE);
  const { t: tc } = useTranslation();
  const webhooks = useQuery(webhooksQuery);
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<OnceSecret | null>(null);
  const [logOf, setLogOf] = useState<string | null>(null);
  const shown = webhooks.data?.find((webhook) => webhook.id === logOf);

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{t('webhooks.heading')}</Title>
        <Button onClick={() => setCreating(true)}>{t('webhooks.create')}</Button>
      </Group>

      {webhooks.isPending && <Loader aria-label={t('loading')} />}
      {webhooks.isError && (
        <ProblemAlert retry={{ label: t('retry'), onClick: () => void webhooks.refetch() }}>{problemText(tc, webhooks.error)}</ProblemAlert>
      )}
      {webhooks.isSuccess && webhooks.data.length === 0 && <EmptyState title={t('webhooks.emptyTitle')} body={t('webhooks.emptyBody')} />}
      {webhooks.data?.map((webhook) => (
        <WebhookCard
          key={webhook.id}
          webhook={webhook}
          onSecret={setSecret}
          showingLog={logOf === webhook.id}
          onShowLog={() => setLogOf(logOf === webhook.id ? null : webhook.id)}
        />
      ))}
      {shown && <DeliveryLog webhook={shown} />}

      <Dialog opened={creating} onClose={() => setCreating(false)} title={t('webhooks.create')} size="lg">
        <WebhookForm
          onCancel={() => setCreating(false)}
          onCreated={(webhook, value) => {
            setCreating(false);
            setLogOf(webhook.id);
            setSecret({ title: t('webhooks.createdTitle'), label: t('webhooks.secret'), value });
          }}
        />
      </Dialog>
      <SecretReveal secret={secret} onClose={() => setSecret(null)} />
    </Stack>
  );
}
