/** Members: who belongs to the company and what each may do, the invitations waiting, and the audit log. */
import { Button, Group, Stack, Tabs, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { sessionQuery } from '../../api/session';
import { AuditLog } from './audit-log';
import { InvitationsList } from './invitations-list';
import { InviteColleague } from './invite-colleague';
import { membersQuery } from './members-api';
import { MembersTable } from './members-table';
import { MEMBERS_NS } from './strings';
import { ProblemAlert } from '../../ui/problem-alert';

export function MembersPage() {
  const { t } = useTranslation(MEMBERS_NS);
  const session = useQuery(sessionQuery).data;
  const members = useQuery(membersQuery);
  const [inviting, setInviting] = useState(false);
  if (!session) return null;
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>{t('title')}</Title>
        {session.owner && <Button onClick={() => setInviting(true)}>{t('invite')}</Button>}
      </Group>
      <Tabs defaultValue="members" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="members">{t('tabMembers')}</Tabs.Tab>
          <Tabs.Tab value="audit">{t('tabAudit')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="members" pt="md">
          <Stack gap="xl">
            {!session.owner && <Text c="dimmed">{t('readOnly')}</Text>}
            {members.isPending ? (
              <Text c="dimmed">{t('loading')}</Text>
            ) : members.isError ? (
              <ProblemAlert title={t('loadFailed')} retry={{ label: t('retry'), onClick: () => void members.refetch() }} />
            ) : (
              <MembersTable members={members.data} session={session} />
            )}
            <InvitationsList canCancel={session.owner} />
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="audit" pt="md">
          <AuditLog members={members.data ?? []} />
        </Tabs.Panel>
      </Tabs>
      {inviting && <InviteColleague onClose={() => setInviting(false)} />}
    </Stack>
  );
}
