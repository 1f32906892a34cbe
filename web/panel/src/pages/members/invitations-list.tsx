/** Invitations still waiting for their colleague; owners may cancel one (its link stops working). */
import { Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { notify } from '../../ui/notify';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import { problemText } from '../../ui/problem-text';
import { invitationsQuery, PERMISSION_ORDER, type Invitation } from './members-api';
import { MEMBERS_NS } from './strings';

function InvitationRow({ invitation, canCancel }: { invitation: Invitation; canCancel: boolean }) {
  const { t, i18n } = useTranslation(MEMBERS_NS);
  const { t: tc } = useTranslation();
  const queryClient = useQueryClient();
  const cancel = useMutation({
    mutationFn: () => unwrap(api.DELETE('/invitations/{invitationId}', { params: { path: { invitationId: invitation.id } } })),
    onSuccess: async () => {
      notify({ color: 'green', message: t('invitationCancelled') });
      await queryClient.invalidateQueries({ queryKey: ['invitations'] });
    },
    onError: (error) => notify({ color: 'red', message: problemText(tc, error) }),
  });
  return (
    <Paper withBorder p="sm" component="li">
      <Group justify="space-between" wrap="wrap">
        <Stack gap={4}>
          <Text fw={500}>{invitation.email}</Text>
          <Group gap={4}>
            {invitation.owner ? (
              <Badge>{t('owner')}</Badge>
            ) : (
              PERMISSION_ORDER.filter((p) => invitation.permissions.includes(p)).map((p) => (
                <Badge key={p} variant="light">
                  {t(`permShort.${p}`)}
                </Badge>
              ))
            )}
          </Group>
          <Text size="sm" c="dimmed">
            {t('expires')}: {new Date(invitation.expiresAt).toLocaleString(i18n.language)}
          </Text>
        </Stack>
        {canCancel && (
          <Button size="xs" variant="subtle" color="red" loading={cancel.isPending} onClick={() => cancel.mutate()} aria-label={`${t('cancelInvitation')}: ${invitation.email}`}>
            {t('cancelInvitation')}
          </Button>
        )}
      </Group>
    </Paper>
  );
}

export function InvitationsList({ canCancel }: { canCancel: boolean }) {
  const { t } = useTranslation(MEMBERS_NS);
  const invitations = useQuery(invitationsQuery);
  return (
    <Stack gap="sm">
      <Title order={2} size="h3">
        {t('pendingTitle')}
      </Title>
      {invitations.isPending ? (
        <Text c="dimmed">{t('loading')}</Text>
      ) : invitations.isError ? (
        <Text c="red.9">{t('loadFailed')}</Text>
      ) : invitations.data.length === 0 ? (
        <Text c="dimmed">{t('pendingEmpty')}</Text>
      ) : (
        <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {invitations.data.map((invitation) => (
            <InvitationRow key={invitation.id} invitation={invitation} canCancel={canCancel} />
          ))}
        </Stack>
      )}
    </Stack>
  );
}
