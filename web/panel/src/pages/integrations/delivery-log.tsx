/** A subscription's delivery log, page by page: each delivery with every attempt, resend one, and recover a period. */
import { Accordion, Badge, Button, Code, Group, Loader, Stack, Text, TextInput, Title } from '@mantine/core';
import { notify } from '../../ui/notify';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { ApiProblem, applyFieldErrors, unwrap } from '../../api/errors';
import { EmptyState } from '../../ui/empty-state';
import { fieldText, problemText } from '../../ui/problem-text';
import { formatWhen, localToInstant } from './format';
import { DELIVERIES, deliveryLogQuery, type Delivery, type Webhook } from './integrations-api';
import { LoadMore } from './load-more';
import { NAMESPACE } from './strings';
import { ProblemAlert } from '../../ui/problem-alert';

const STATUS_COLOR = { pending: 'yellow', succeeded: 'green', failed: 'red' } as const;

export function DeliveryStatus({ delivery }: { delivery: Delivery }) {
  const { t } = useTranslation(NAMESPACE);
  return (
    <Badge color={STATUS_COLOR[delivery.status]} variant="light" c="dark.9" data-testid="delivery-status">
      {t(`deliveries.statusValue.${delivery.status}`)}
    </Badge>
  );
}

/** Every attempt of one delivery: the receiver's status and time, or why no answer came, and the start of its answer. */
export function AttemptList({ delivery }: { delivery: Delivery }) {
  const { t } = useTranslation(NAMESPACE);
  if (delivery.log.length === 0) return <Text size="sm">{t('deliveries.noAttempts')}</Text>;
  return (
    <Stack gap="xs" component="ol" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label={t('deliveries.showAttempts', { id: delivery.id })}>
      {delivery.log.map((attempt) => (
        <li key={attempt.attempt}>
          <Text size="sm" fw={500}>
            {t('deliveries.attempt', { n: attempt.attempt })} · {formatWhen(attempt.startedAt)} ·{' '}
            {attempt.statusCode !== null
              ? t('deliveries.attemptAnswer', { code: attempt.statusCode, ms: attempt.durationMs ?? 0 })
              : t('deliveries.attemptNoAnswer', { error: attempt.error ?? '—' })}
          </Text>
          {attempt.responseBody && (
            <>
              <Text size="xs" c="dimmed">
                {t('deliveries.responseBody')}
              </Text>
              <Code block tabIndex={0} style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all', maxHeight: 160, overflow: 'auto' }}>
                {attempt.responseBody}
              </Code>
            </>
          )}
        </li>
      ))}
    </Stack>
  );
}

function RecoverForm({ webhook }: { webhook: Webhook }) {
  const { t } = useTranslation(NAMESPACE);
  const { t: tc } = useTranslation();
  const queryClient = useQueryClient();
  const [problem, setProblem] = useState<string | null>(null);
  const form = useForm<{ since: string }>({ defaultValues: { since: '' } });
  const recover = useMutation({
    mutationFn: async ({ since }: { since: string }) =>
      (await unwrap(api.POST('/webhooks/recover', { body: { since: localToInstant(since) ?? since, subscriptionId: webhook.id } }))).data,
    onSuccess: async ({ queued }) => {
      setProblem(null);
      notify({ color: 'green', message: t('deliveries.recovered', { count: queued }) });
      await queryClient.invalidateQueries({ queryKey: DELIVERIES });
    },
    onError: (error) => {
      setProblem(null);
      if (error instanceof ApiProblem && error.code === 'VALIDATION_ERROR') {
        if (applyFieldErrors(error, form.setError, ['since'], (field) => fieldText(tc, field)).length === 0) return;
      }
      setProblem(problemText(tc, error));
    },
  });
  return (
    <form onSubmit={(event) => void form.handleSubmit((fields) => recover.mutate(fields))(event)} noValidate>
      <Stack gap="xs">
        <Title order={4}>{t('deliveries.recover')}</Title>
        {problem && (
          <ProblemAlert>
            {problem}
          </ProblemAlert>
        )}
        <Group align="flex-end">
          <TextInput
            type="datetime-local"
            label={t('deliveries.since')}
            description={t('deliveries.recoverHelp')}
            required
            error={form.formState.errors.since?.message}
            style={{ flex: '1 1 16rem' }}
            {...form.register('since', { required: tc('field.required') })}
          />
          <Button type="submit" variant="default" loading={recover.isPending}>
            {t('deliveries.recoverSubmit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

export function DeliveryLog({ webhook }: { webhook: Webhook }) {
  const { t } = useTranslation(NAMESPACE);
  const { t: tc } = useTranslation();
  const queryClient = useQueryClient();
  const deliveries = useInfiniteQuery(deliveryLogQuery(webhook.id));
  const rows = deliveries.data?.pages.flatMap((page) => page.items) ?? [];
  const resend = useMutation({
    mutationFn: async (delivery: Delivery) => (await unwrap(api.POST('/webhooks/deliveries/{id}/resend', { params: { path: { id: delivery.id } } }))).data,
    onSuccess: async () => {
      notify({ color: 'green', message: t('deliveries.resent') });
      await queryClient.invalidateQueries({ queryKey: DELIVERIES });
    },
    onError: (error) => notify({ color: 'red', message: problemText(tc, error) }),
  });

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={3} style={{ wordBreak: 'break-all' }}>
          {t('deliveries.heading', { url: webhook.url })}
        </Title>
        <Button variant="default" onClick={() => void deliveries.refetch()} loading={deliveries.isFetching && !deliveries.isPending}>
          {t('deliveries.refresh')}
        </Button>
      </Group>
      {deliveries.isPending && <Loader aria-label={t('loading')} />}
      {deliveries.isError && (
        <ProblemAlert>
          {problemText(tc, deliveries.error)}
        </ProblemAlert>
      )}
      {deliveries.isSuccess && rows.length === 0 && <EmptyState title={t('deliveries.emptyTitle')} body={t('deliveries.emptyBody')} />}
      {deliveries.isSuccess && rows.length > 0 && (
        <Accordion variant="separated" chevronPosition="left">
          {rows.map((delivery) => (
            <Accordion.Item key={delivery.id} value={delivery.id} data-delivery-id={delivery.id}>
              <Accordion.Control>
                <Group gap="sm" wrap="wrap">
                  <Text fw={500}>{delivery.eventType}</Text>
                  <DeliveryStatus delivery={delivery} />
                  <Text size="sm" c="dimmed">
                    {formatWhen(delivery.createdAt)} · {t('deliveries.attempts')}: {delivery.attempts}
                  </Text>
                </Group>
              </Accordion.Control>
              <Accordion.Panel>
                <Stack gap="sm">
                  {delivery.nextAttemptAt && <Text size="sm">{t('deliveries.next', { when: formatWhen(delivery.nextAttemptAt) })}</Text>}
                  <AttemptList delivery={delivery} />
                  <Group>
                    <Button size="xs" variant="default" disabled={!webhook.enabled} loading={resend.isPending && resend.variables?.id === delivery.id} onClick={() => resend.mutate(delivery)}>
                      {t('deliveries.resend')}
                    </Button>
                  </Group>
                </Stack>
              </Accordion.Panel>
            </Accordion.Item>
          ))}
        </Accordion>
      )}
      <LoadMore query={deliveries} />
      <RecoverForm webhook={webhook} />
    </Stack>
  );
}
