/** The Forms area: the company's forms with search, open/closed, counts; create, duplicate, close, reopen, delete. */
import { Badge, Button, Group, Menu, Pagination, SegmentedControl, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notify } from '../../ui/notify';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { ApiProblem, unwrap } from '../../api/errors';
import { hasPermission, sessionQuery } from '../../api/session';
import { EmptyState } from '../../ui/empty-state';
import { problemText } from '../../ui/problem-text';
import { formatWhen } from '../integrations/format';
import { Loading, LoadError } from '../../ui/area-state';
import { CreateFormDialog } from './create-form-dialog';
import { Dialog } from './dialog';
import { FORMS, formsQuery, PAGE_SIZE, type FormSummary } from './forms-api';
import { NS } from './strings';
import { ProblemAlert } from '../../ui/problem-alert';

type Status = 'all' | 'open' | 'closed';

export function FormsPage() {
  const { t } = useTranslation(NS);
  const { t: tc } = useTranslation();
  const session = useQuery(sessionQuery).data;
  const canEdit = session ? hasPermission(session, 'forms') : false;
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  const [status, setStatus] = useState<Status>('all');
  const [page, setPage] = useState(1);
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<FormSummary | null>(null);
  const list = useQuery({ ...formsQuery({ search: debounced.trim(), status: status === 'all' ? undefined : status, page }), placeholderData: keepPreviousData });

  const act = useMutation({
    mutationFn: async ({ form, action }: { form: FormSummary; action: 'duplicate' | 'close' | 'reopen' | 'delete' }) => {
      const path = { params: { path: { id: form.id } } };
      if (action === 'delete') return unwrap(api.DELETE('/forms/{id}', path));
      if (action === 'duplicate') return unwrap(api.POST('/forms/{id}/duplicate', path));
      return unwrap(action === 'close' ? api.POST('/forms/{id}/close', path) : api.POST('/forms/{id}/reopen', path));
    },
    onSuccess: async (result, { action }) => {
      if (action === 'delete') {
        setDeleting(null);
        notify({ color: 'green', message: t('list.deleted') });
      }
      if (action === 'duplicate' && 'form' in result.data) notify({ color: 'green', message: t('list.duplicated', { name: result.data.form.name }) });
      await queryClient.invalidateQueries({ queryKey: FORMS });
    },
    onError: (error) => notify({ color: 'red', message: problemText(tc, error) }),
  });

  const pages = list.data ? Math.max(1, Math.ceil(list.data.meta.total / PAGE_SIZE)) : 1;
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>{t('title')}</Title>
        {canEdit && <Button onClick={() => setCreating(true)}>{t('list.create')}</Button>}
      </Group>
      <Text c="dimmed">{t('intro')}</Text>
      <Group align="flex-end" wrap="wrap">
        <TextInput label={t('list.search')} value={search} maxLength={200} onChange={(event) => (setSearch(event.currentTarget.value), setPage(1))} style={{ flex: '1 1 14rem' }} />
        <Stack gap={4}>
          <Text size="sm" fw={500} id="forms-status-label">
            {t('list.status')}
          </Text>
          <SegmentedControl
            aria-labelledby="forms-status-label"
            value={status}
            onChange={(value) => (setStatus(value as Status), setPage(1))}
            data={(['all', 'open', 'closed'] as const).map((value) => ({ value, label: t(`list.${value}`) }))}
          />
        </Stack>
      </Group>

      {list.isPending && <Loading />}
      {list.isError && <LoadError error={list.error} retry={() => void list.refetch()} />}
      {list.isSuccess && list.data.data.length === 0 && <EmptyState title={t('list.emptyTitle')} body={t('list.emptyBody')} />}
      {list.isSuccess && list.data.data.length > 0 && (
        <Table.ScrollContainer minWidth={640}>
          <Table striped highlightOnHover aria-label={t('title')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('list.name')}</Table.Th>
                <Table.Th>{t('list.state')}</Table.Th>
                <Table.Th>{t('list.responses')}</Table.Th>
                <Table.Th>{t('list.lastResponse')}</Table.Th>
                {canEdit && <Table.Th>{t('list.actions')}</Table.Th>}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.data.data.map((form) => (
                <Table.Tr key={form.id} data-form-id={form.id}>
                  <Table.Td>
                    {canEdit ? (
                      <Link to="/forms/$formId" params={{ formId: form.id }} style={{ fontWeight: 500, color: 'var(--mantine-color-anchor)' }}>
                        {form.name}
                      </Link>
                    ) : (
                      <Text fw={500}>{form.name}</Text>
                    )}
                    <Text size="xs" c="dimmed">
                      {form.slug}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4}>
                      <Badge variant="light" color={form.isClosed ? 'gray' : 'green'} c="dark.9">
                        {t(form.isClosed ? 'list.closed' : 'list.open')}
                      </Badge>
                      {form.isPublic && (
                        <Badge variant="light" color="blue" c="dark.9">
                          {t('list.public')}
                        </Badge>
                      )}
                    </Group>
                  </Table.Td>
                  <Table.Td data-label="responses">{form.responseCount}</Table.Td>
                  <Table.Td>{form.lastResponseAt ? formatWhen(form.lastResponseAt) : t('never')}</Table.Td>
                  {canEdit && (
                    <Table.Td>
                      <Menu position="bottom-end">
                        <Menu.Target>
                          <Button size="xs" variant="default" aria-label={t('list.actionsFor', { name: form.name })}>
                            {t('list.actions')}
                          </Button>
                        </Menu.Target>
                        <Menu.Dropdown>
                          <Menu.Item onClick={() => void navigate({ to: '/forms/$formId', params: { formId: form.id } })}>{t('list.edit')}</Menu.Item>
                          <Menu.Item onClick={() => act.mutate({ form, action: 'duplicate' })}>{t('list.duplicate')}</Menu.Item>
                          <Menu.Item onClick={() => act.mutate({ form, action: form.isClosed ? 'reopen' : 'close' })}>{t(form.isClosed ? 'list.reopen' : 'list.close')}</Menu.Item>
                          <Menu.Item color="red.9" disabled={form.responseCount > 0} title={form.responseCount > 0 ? t('list.cannotDelete') : undefined} onClick={() => setDeleting(form)}>
                            {t('list.delete')}
                          </Menu.Item>
                        </Menu.Dropdown>
                      </Menu>
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {pages > 1 && (
        <Pagination
          total={pages}
          value={page}
          onChange={setPage}
          getControlProps={(control) => ({ 'aria-label': control === 'previous' ? t('list.previous') : control === 'next' ? t('list.next') : control })}
          getItemProps={(n) => ({ 'aria-label': t('list.page', { page: n, pages }) })}
        />
      )}

      {canEdit && <CreateFormDialog opened={creating} onClose={() => setCreating(false)} />}
      <Dialog opened={deleting !== null} onClose={() => setDeleting(null)} title={deleting ? t('list.deleteTitle', { name: deleting.name }) : ''}>
        <Stack>
          <Text>{t('list.deleteBody')}</Text>
          {act.isError && act.error instanceof ApiProblem && (
            <ProblemAlert>
              {problemText(tc, act.error)}
            </ProblemAlert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDeleting(null)}>
              {t('cancel')}
            </Button>
            <Button color="red.9" loading={act.isPending} onClick={() => deleting && act.mutate({ form: deleting, action: 'delete' })}>
              {t('list.deleteConfirm')}
            </Button>
          </Group>
        </Stack>
      </Dialog>
    </Stack>
  );
}
