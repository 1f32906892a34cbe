/** API keys: the list with last use (page by page), the new-key dialog (token shown once) and revocation. */
import { Badge, Button, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { notify } from '../../ui/notify';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import { EmptyState } from '../../ui/empty-state';
import { problemText } from '../../ui/problem-text';
import { CreateKeyForm } from './create-key-form';
import { formatWhen } from './format';
import { KEYS, keysQuery, type ApiKey } from './integrations-api';
import { LoadMore } from './load-more';
import { SecretReveal, type OnceSecret } from './secret-reveal';
import { Dialog } from './dialog';
import { NAMESPACE } from './strings';
import { ProblemAlert } from '../../ui/problem-alert';

function keyStatus(key: ApiKey, now: number): 'revoked' | 'expired' | 'active' {
  if (key.revokedAt) return 'revoked';
  if (key.expiresAt && Date.parse(key.expiresAt) <= now) return 'expired';
  return 'active';
}

const STATUS_COLOR = { active: 'green', revoked: 'gray', expired: 'orange' } as const;

export function KeysSection() {
  const { t } = useTranslation(NAMESPACE);
  const { t: tc } = useTranslation();
  const queryClient = useQueryClient();
  const keys = useInfiniteQuery(keysQuery);
  const rows = keys.data?.pages.flatMap((page) => page.items) ?? [];
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<OnceSecret | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);

  const revoke = useMutation({
    mutationFn: async (key: ApiKey) => (await unwrap(api.POST('/keys/{id}/revoke', { params: { path: { id: key.id } } }))).data,
    onSuccess: async (key) => {
      setRevoking(null);
      notify({ color: 'green', message: t('keys.revokedNotice', { name: key.name }) });
      await queryClient.invalidateQueries({ queryKey: KEYS });
    },
  });

  const now = Date.now();
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{t('keys.heading')}</Title>
        <Button onClick={() => setCreating(true)}>{t('keys.create')}</Button>
      </Group>

      {keys.isPending && <Loader aria-label={t('loading')} />}
      {keys.isError && (
        <ProblemAlert retry={{ label: t('retry'), onClick: () => void keys.refetch() }}>{problemText(tc, keys.error)}</ProblemAlert>
      )}
      {keys.isSuccess && rows.length === 0 && <EmptyState title={t('keys.emptyTitle')} body={t('keys.emptyBody')} />}
      {keys.isSuccess && rows.length > 0 && (
        <Table.ScrollContainer minWidth={720}>
          <Table striped highlightOnHover aria-label={t('keys.heading')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('keys.name')}</Table.Th>
                <Table.Th>{t('keys.scopes')}</Table.Th>
                <Table.Th>{t('keys.status')}</Table.Th>
                <Table.Th>{t('keys.lastUsed')}</Table.Th>
                <Table.Th>{t('keys.expiresAt')}</Table.Th>
                <Table.Th>{t('keys.actions')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((key) => {
                const status = keyStatus(key, now);
                return (
                  <Table.Tr key={key.id} data-key-id={key.id}>
                    <Table.Td>
                      <Text fw={500}>{key.name}</Text>
                      <Text size="xs" c="dimmed">
                        {t('keys.tokenId')}: {key.tokenId} · {t('keys.perMinute', { count: key.rateLimitPerMin })}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{key.scopes.join(', ') || '—'}</Text>
                    </Table.Td>
                    <Table.Td>
                      <Badge color={STATUS_COLOR[status]} variant="light" c="dark.9">
                        {t(`keys.${status}`)}
                      </Badge>
                    </Table.Td>
                    <Table.Td>{key.lastUsedAt ? formatWhen(key.lastUsedAt) : t('never')}</Table.Td>
                    <Table.Td>{key.expiresAt ? formatWhen(key.expiresAt) : t('never')}</Table.Td>
                    <Table.Td>
                      {status !== 'revoked' && (
                        <Button size="xs" variant="default" c="red.9" onClick={() => setRevoking(key)} aria-label={`${t('keys.revoke')} ${key.name}`}>
                          {t('keys.revoke')}
                        </Button>
                      )}
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <LoadMore query={keys} />

      <Dialog opened={creating} onClose={() => setCreating(false)} title={t('keys.create')} size="lg">
        <CreateKeyForm
          onCancel={() => setCreating(false)}
          onCreated={(key, token) => {
            setCreating(false);
            setSecret({ title: t('keys.createdTitle', { name: key.name }), label: t('keys.token'), value: token });
          }}
        />
      </Dialog>

      <SecretReveal secret={secret} onClose={() => setSecret(null)} />

      <Dialog opened={revoking !== null} onClose={() => setRevoking(null)} title={revoking ? t('keys.revokeTitle', { name: revoking.name }) : ''}>
        <Stack>
          <Text>{t('keys.revokeBody')}</Text>
          {revoke.isError && (
            <ProblemAlert>
              {problemText(tc, revoke.error)}
            </ProblemAlert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setRevoking(null)}>
              {t('cancel')}
            </Button>
            <Button color="red.9" loading={revoke.isPending} onClick={() => revoking && revoke.mutate(revoking)}>
              {t('keys.revokeConfirm')}
            </Button>
          </Group>
        </Stack>
      </Dialog>
    </Stack>
  );
}
