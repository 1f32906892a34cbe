/** The person's sessions (browser, address, when), with sign-out of one or of every other. */
import { Badge, Button, Group, Paper, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { notify } from '../../ui/notify';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import { signedOut } from '../../api/session';
import { problemText } from '../../ui/problem-text';
import { ScrollRegion } from '../../ui/scroll-region';
import { ACCOUNT_NS } from './strings';

const sessionsKey = ['account-sessions'];

/** "Firefox on Linux" is more than a person needs; the product and the platform read well enough. */
function browserName(userAgent: string | null, unknown: string): string {
  if (!userAgent) return unknown;
  const product = /(Edg|OPR|Firefox|Chrome|Safari)\/[\d.]+/.exec(userAgent)?.[1]?.replace('Edg', 'Edge').replace('OPR', 'Opera');
  const platform = /(Windows|Android|iPhone|iPad|Mac OS X|Linux)/.exec(userAgent)?.[1]?.replace('Mac OS X', 'macOS');
  return [product, platform].filter(Boolean).join(' · ') || userAgent.slice(0, 60);
}

export function SessionsCard() {
  const { t, i18n } = useTranslation(ACCOUNT_NS);
  const { t: tc } = useTranslation();
  const queryClient = useQueryClient();
  const sessions = useQuery({ queryKey: sessionsKey, queryFn: async () => (await unwrap(api.GET('/account/sessions'))).data });
  const onError = (error: unknown) => notify({ color: 'red', message: problemText(tc, error) });
  const endOne = useMutation({
    mutationFn: (sessionId: string) => unwrap(api.DELETE('/account/sessions/{sessionId}', { params: { path: { sessionId } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionsKey }),
    onError,
  });
  const endOthers = useMutation({
    mutationFn: () => unwrap(api.DELETE('/account/sessions')),
    onSuccess: async ({ data }) => {
      notify({ color: 'green', message: t('signedOutCount', { count: data.ended }) });
      await queryClient.invalidateQueries({ queryKey: sessionsKey });
    },
    onError,
  });
  const when = (iso: string) => new Date(iso).toLocaleString(i18n.language);
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="sessions-title">
      <Stack>
        <Group justify="space-between">
          <Title order={2} size="h3" id="sessions-title">
            {t('sessions')}
          </Title>
          <Button variant="default" onClick={() => endOthers.mutate()} loading={endOthers.isPending}>
            {t('signOutOthers')}
          </Button>
        </Group>
        {sessions.isPending ? (
          <Text c="dimmed">{t('sessionsLoading')}</Text>
        ) : sessions.isError ? (
          <Text c="red.9" role="alert">
            {t('sessionsFailed')}
          </Text>
        ) : (
          <ScrollRegion label={t('sessions')} minWidth={560}>
            <Table verticalSpacing="xs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t('browser')}</Table.Th>
                  <Table.Th scope="col">{t('address')}</Table.Th>
                  <Table.Th scope="col">{t('started')}</Table.Th>
                  <Table.Th scope="col">{t('lastSeen')}</Table.Th>
                  <Table.Th scope="col">
                    <VisuallyHidden>{t('signOut')}</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {sessions.data.map((session) => (
                  <Table.Tr key={session.id}>
                    <Table.Td>
                      {browserName(session.userAgent, t('unknown'))}
                      {session.current && (
                        <Badge ml="xs" size="sm">
                          {t('thisSession')}
                        </Badge>
                      )}
                    </Table.Td>
                    <Table.Td>{session.ip ?? t('unknown')}</Table.Td>
                    <Table.Td>{when(session.createdAt)}</Table.Td>
                    <Table.Td>{when(session.lastSeenAt)}</Table.Td>
                    <Table.Td>
                      <Button
                        size="xs"
                        variant="subtle"
                        color="red"
                        aria-label={`${t('signOut')}: ${browserName(session.userAgent, t('unknown'))}, ${when(session.lastSeenAt)}`}
                        onClick={() =>
                          endOne.mutate(session.id, {
                            onSuccess: () => {
                              if (session.current) signedOut(queryClient);
                            },
                          })
                        }
                      >
                        {t('signOut')}
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollRegion>
        )}
      </Stack>
    </Paper>
  );
}
