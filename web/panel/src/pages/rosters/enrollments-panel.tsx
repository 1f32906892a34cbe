/** The Enrollments tab: the API's scan with its filters, and one enrollment's status changed by hand. */
import { Alert, Button, Group, Select, SimpleGrid, Stack, Table, Text, TextInput } from '@mantine/core';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import { LoadError, Loading } from '../../ui/area-state';
import { problemText } from '../../ui/problem-text';
import { ScrollRegion } from '../../ui/scroll-region';
import { classesQuery, ENROLLMENT_STATUSES, enrollmentsQuery, groupsQuery, type EnrollmentFilter, type EnrollmentStatus } from './rosters-api';
import { NS } from './strings';

type Filter = Omit<EnrollmentFilter, 'cursor' | 'limit'>;
type FilterForm = { status: string; classCode: string; classGroupId: string; orgUnitId: string; changedSince: string };
const EMPTY: FilterForm = { status: '', classCode: '', classGroupId: '', orgUnitId: '', changedSince: '' };

/** The form's values as the API's filters: empty fields left out, the local date-time as an instant. */
function toFilter(values: FilterForm): Filter {
  const filter: Filter = {};
  if (values.status) filter.status = values.status as EnrollmentStatus;
  if (values.classCode.trim()) filter.classCode = values.classCode.trim();
  if (values.classGroupId) filter.classGroupId = values.classGroupId;
  if (values.orgUnitId) filter.orgUnitId = values.orgUnitId;
  if (values.changedSince) filter.changedSince = new Date(values.changedSince).toISOString();
  return filter;
}

function Filters({ onApply }: { onApply: (filter: Filter) => void }) {
  const { t } = useTranslation(NS);
  const form = useForm<FilterForm>({ defaultValues: EMPTY });
  const groups = useQuery(groupsQuery(1, 100));
  const classes = useQuery(classesQuery(1, 100));
  const units = [...new Map((classes.data?.data ?? []).map((c) => [c.orgUnit.id, c.orgUnit.name])).entries()];
  const select = (name: keyof FilterForm, label: string, data: { value: string; label: string }[]) => (
    <Select
      label={label}
      data={[{ value: '', label: t('any') }, ...data]}
      value={form.watch(name)}
      onChange={(value) => form.setValue(name, value ?? '')}
      allowDeselect={false}
    />
  );
  return (
    <form onSubmit={(event) => void form.handleSubmit((values) => onApply(toFilter(values)))(event)}>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
        {select('status', t('enrollments.status'), ENROLLMENT_STATUSES.map((s) => ({ value: s, label: t(`statuses.${s}`) })))}
        <TextInput label={t('enrollments.classCode')} maxLength={64} {...form.register('classCode')} />
        {select('classGroupId', t('enrollments.classGroup'), (groups.data?.data ?? []).map((g) => ({ value: g.id, label: g.name })))}
        {select('orgUnitId', t('enrollments.orgUnit'), units.map(([value, label]) => ({ value, label })))}
        <TextInput type="datetime-local" label={t('enrollments.changedSince')} {...form.register('changedSince')} />
      </SimpleGrid>
      <Group mt="sm">
        <Button type="submit" variant="light">
          {t('enrollments.apply')}
        </Button>
      </Group>
    </form>
  );
}

export function EnrollmentsPanel() {
  const { t, i18n } = useTranslation([NS, 'translation']);
  const client = useQueryClient();
  const [filter, setFilter] = useState<Filter>({});
  const query = useInfiniteQuery(enrollmentsQuery(filter));
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const change = useMutation({
    mutationFn: (body: { externalId: string; classCode: string; status: EnrollmentStatus; person: string }) =>
      unwrap(api.POST('/rosters/enrollment-status', { body: { externalId: body.externalId, classCode: body.classCode, status: body.status } })),
    onMutate: () => setOutcome(null),
    onSuccess: ({ data }, body) => {
      void client.invalidateQueries({ queryKey: ['rosters'] });
      const saved = t('enrollments.saved', { person: body.person, class: body.classCode, status: t(`statuses.${body.status}`) });
      setOutcome({ ok: true, text: !data.changed ? t('enrollments.same') : data.events > 0 ? `${saved} ${t('enrollments.dropEvent')}` : saved });
    },
    onError: (error) => setOutcome({ ok: false, text: problemText(t, error) }),
  });

  const rows = query.data?.pages.flatMap((page) => page.data) ?? [];
  const at = (iso: string) => new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
  return (
    <Stack>
      <Filters onApply={setFilter} />
      {outcome ? (
        <Alert color={outcome.ok ? 'green.9' : 'red.9'} role={outcome.ok ? 'status' : 'alert'}>
          {outcome.text}
        </Alert>
      ) : null}
      {query.isPending ? (
        <Loading />
      ) : query.isError ? (
        <LoadError error={query.error} retry={() => void query.refetch()} />
      ) : rows.length === 0 ? (
        <Text c="dimmed">{Object.keys(filter).length === 0 ? t('enrollments.none') : t('enrollments.empty')}</Text>
      ) : (
        <>
          <Text size="sm" role="status">
            {t('enrollments.total', { count: query.data.pages[0].meta.total ?? rows.length })}
          </Text>
          <ScrollRegion label={t('enrollments.region')} minWidth={640}>
            <Table striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('enrollments.person')}</Table.Th>
                  <Table.Th>{t('enrollments.class')}</Table.Th>
                  <Table.Th>{t('enrollments.status')}</Table.Th>
                  <Table.Th>{t('enrollments.changed')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((e) => (
                  <Table.Tr key={e.id}>
                    <Table.Td>
                      {e.person.name}{' '}
                      <Text span size="xs" c="dimmed">
                        {e.person.externalId}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      {e.class.name}{' '}
                      <Text span size="xs" c="dimmed">
                        {e.class.code}
                      </Text>
                    </Table.Td>
                    <Table.Td miw={150}>
                      <Select
                        aria-label={t('enrollments.setStatus', { person: e.person.name, class: e.class.code })}
                        data={ENROLLMENT_STATUSES.map((s) => ({ value: s, label: t(`statuses.${s}`) }))}
                        value={e.status}
                        allowDeselect={false}
                        disabled={change.isPending}
                        onChange={(value) =>
                          value && value !== e.status && change.mutate({ externalId: e.person.externalId, classCode: e.class.code, status: value as EnrollmentStatus, person: e.person.name })
                        }
                        size="xs"
                      />
                    </Table.Td>
                    <Table.Td>
                      <time dateTime={e.statusChangedAt}>{at(e.statusChangedAt)}</time>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollRegion>
          {query.hasNextPage ? (
            <Group>
              <Button variant="light" loading={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()}>
                {t('more')}
              </Button>
            </Group>
          ) : null}
        </>
      )}
    </Stack>
  );
}
