/** The company's members: who they are and what they may do; owners change or remove them. */
import { Badge, Button, Group, Modal, Stack, Table, Text } from '@mantine/core';
import { notify } from '../../ui/notify';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, type Session } from '../../api/client';
import { ApiProblem, unwrap } from '../../api/errors';
import { sessionQuery } from '../../api/session';
import { problemText } from '../../ui/problem-text';
import { ScrollRegion } from '../../ui/scroll-region';
import { PERMISSION_ORDER, type Member } from './members-api';
import { PermissionFields, type Grant } from './permission-fields';
import { MEMBERS_NS } from './strings';
import { ProblemAlert } from '../../ui/problem-alert';

function lastOwnerText(t: (key: string) => string, tc: Parameters<typeof problemText>[0], error: unknown): string {
  // the server names the field the last-owner rule refused (owner or userId); the sentence says why
  return error instanceof ApiProblem && error.code === 'VALIDATION_ERROR' && error.fields.some((f) => f.path === 'owner' || f.path === 'userId')
    ? t('lastOwner')
    : problemText(tc, error);
}

function Role({ member }: { member: Member }) {
  const { t } = useTranslation(MEMBERS_NS);
  if (member.owner) return <Badge variant="filled">{t('owner')}</Badge>;
  if (member.permissions.length === 0) return <Text c="dimmed" size="sm">{t('noPermissions')}</Text>;
  return (
    <Group gap={4}>
      {PERMISSION_ORDER.filter((p) => member.permissions.includes(p)).map((p) => (
        <Badge key={p} variant="light">
          {t(`permShort.${p}`)}
        </Badge>
      ))}
    </Group>
  );
}

function EditMember({ member, onClose }: { member: Member; onClose: () => void }) {
  const { t } = useTranslation(MEMBERS_NS);
  const { t: tc } = useTranslation();
  const queryClient = useQueryClient();
  const [grant, setGrant] = useState<Grant>({ owner: member.owner, permissions: member.permissions });
  const save = useMutation({
    mutationFn: () => unwrap(api.PUT('/members/{userId}', { params: { path: { userId: member.userId } }, body: grant })),
    onSuccess: async () => {
      notify({ color: 'green', message: t('saved') });
      await Promise.all([queryClient.invalidateQueries({ queryKey: ['members'] }), queryClient.invalidateQueries({ queryKey: sessionQuery.queryKey })]);
      onClose();
    },
  });
  return (
    <Modal opened onClose={onClose} title={t('editTitle', { name: member.name })} closeButtonProps={{ 'aria-label': t('close') }}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          save.mutate();
        }}
      >
        <Stack>
          {save.error && (
            <ProblemAlert>
              {lastOwnerText(t, tc, save.error)}
            </ProblemAlert>
          )}
          <PermissionFields value={grant} onChange={setGrant} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {t('save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function RemoveMember({ member, onClose }: { member: Member; onClose: () => void }) {
  const { t } = useTranslation(MEMBERS_NS);
  const { t: tc } = useTranslation();
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE('/members/{userId}', { params: { path: { userId: member.userId } } })),
    onSuccess: async () => {
      notify({ color: 'green', message: t('removed') });
      await queryClient.invalidateQueries({ queryKey: ['members'] });
      onClose();
    },
  });
  return (
    <Modal opened onClose={onClose} title={t('removeTitle', { name: member.name })} closeButtonProps={{ 'aria-label': t('close') }}>
      <Stack>
        <Text>{t('removeBody', { name: member.name })}</Text>
        {remove.error && (
          <ProblemAlert>
            {lastOwnerText(t, tc, remove.error)}
          </ProblemAlert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('cancel')}
          </Button>
          <Button color="red" loading={remove.isPending} onClick={() => remove.mutate()}>
            {t('removeConfirm')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

export function MembersTable({ members, session }: { members: Member[]; session: Session }) {
  const { t } = useTranslation(MEMBERS_NS);
  const [editing, setEditing] = useState<Member | null>(null);
  const [removing, setRemoving] = useState<Member | null>(null);
  return (
    <>
      <ScrollRegion label={t('title')} minWidth={560}>
        <Table verticalSpacing="sm" striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('name')}</Table.Th>
              <Table.Th scope="col">{t('role')}</Table.Th>
              {session.owner && <Table.Th scope="col">{t('actions')}</Table.Th>}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {members.map((member) => (
              <Table.Tr key={member.userId}>
                <Table.Td>
                  <Text fw={500}>
                    {member.name}
                    {member.userId === session.user.id && ` (${t('you')})`}
                  </Text>
                  <Text size="sm" c="dimmed">
                    {member.email}
                  </Text>
                  {member.secondFactor && (
                    <Badge size="xs" variant="outline" mt={4}>
                      {t('secondFactorOn')}
                    </Badge>
                  )}
                </Table.Td>
                <Table.Td>
                  <Role member={member} />
                </Table.Td>
                {session.owner && (
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      <Button size="xs" variant="default" onClick={() => setEditing(member)} aria-label={`${t('edit')}: ${member.name}`}>
                        {t('edit')}
                      </Button>
                      <Button size="xs" variant="subtle" color="red" onClick={() => setRemoving(member)} aria-label={`${t('remove')}: ${member.name}`}>
                        {t('remove')}
                      </Button>
                    </Group>
                  </Table.Td>
                )}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollRegion>
      {editing && <EditMember member={editing} onClose={() => setEditing(null)} />}
      {removing && <RemoveMember member={removing} onClose={() => setRemoving(null)} />}
    </>
  );
}
