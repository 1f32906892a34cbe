/** The Suppression list tab: search, add by e-mail or phone with a reason, take an address off. */
import { ActionIcon, Button, Group, Pagination, Paper, Select, Stack, Table, Text, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { ApiProblem, applyFieldErrors, unwrap } from '../../api/errors';
import { fieldText, problemText } from '../../ui/problem-text';
import { FormOutcome, LoadError, Loading } from '../../ui/area-state';
import { renamedFields, suppressionsQuery } from './settings-api';
import { NS } from './strings';

const REASONS = ['manual', 'bounced', 'complained', 'unsubscribed'] as const;
type Reason = (typeof REASONS)[number];

export function SuppressionsPanel() {
  const { t, i18n } = useTranslation([NS, 'translation']);
  const client = useQueryClient();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const [page, setPage] = useState(1);
  const query = useQuery(suppressionsQuery(debounced, page));
  const [saved, setSaved] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const form = useForm<{ contact: string; reason: Reason }>({ defaultValues: { contact: '', reason: 'manual' } });
  const { errors, isSubmitting } = form.formState;

  const changed = (message: string) => {
    setSaved(message);
    void client.invalidateQueries({ queryKey: ['settings', 'suppressions'] });
  };

  const submit = form.handleSubmit(async ({ contact, reason }) => {
    setSaved(null);
    setProblem(null);
    const value = contact.trim();
    // An address with @ is an e-mail; anything else is read as a phone number by the server.
    const body = value.includes('@') ? { email: value, reason } : { phone: value, reason };
    try {
      const { data } = await unwrap(api.POST('/suppressions', { body }));
      form.reset({ contact: '', reason });
      changed(t(data.added ? 'suppressions.added' : 'suppressions.already', { address: data.address }));
    } catch (error) {
      const place = (failure: ApiProblem) =>
        applyFieldErrors(renamedFields(failure, (path) => (path === 'email' || path === 'phone' ? 'contact' : path)), form.setError, ['contact', 'reason'], (field) => fieldText(t, field));
      const rest = error instanceof ApiProblem ? place(error) : [];
      if (!(error instanceof ApiProblem && error.code === 'VALIDATION_ERROR' && rest.length === 0)) setProblem(problemText(t, error));
    }
  });

  const remove = useMutation({
    mutationFn: (address: string) => unwrap(api.DELETE('/suppressions/{address}', { params: { path: { address } } })),
    onMutate: () => {
      setSaved(null);
      setProblem(null);
    },
    onSuccess: ({ data }) => changed(t('suppressions.removedOne', { address: data.address })),
    onError: (error) => setProblem(problemText(t, error)),
  });

  const since = (iso: string) => new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' }).format(new Date(iso));
  const rows = query.data?.data ?? [];
  const meta = query.data?.meta;

  return (
    <Stack gap="lg">
      <Paper withBorder p="md" radius="md" component="section" aria-labelledby="suppression-add-heading">
        <form onSubmit={(event) => void submit(event)} noValidate>
          <Stack>
            <Title order={2} size="h4" id="suppression-add-heading">
              {t('suppressions.heading')}
            </Title>
            <Text size="sm" c="dimmed">
              {t('suppressions.help')}
            </Text>
            <Group align="flex-start" wrap="wrap">
              <TextInput
                label={t('suppressions.contact')}
                required
                maxLength={320}
                autoComplete="off"
                style={{ flex: '1 1 16rem' }}
                error={errors.contact?.message}
                {...form.register('contact', { required: t('field.required') })}
              />
              <Controller
                control={form.control}
                name="reason"
                render={({ field }) => (
                  <Select
                    label={t('suppressions.reason')}
                    data={REASONS.map((value) => ({ value, label: t(`suppressions.reasons.${value}`) }))}
                    allowDeselect={false}
                    error={errors.reason?.message}
                    value={field.value}
                    onChange={(value) => field.onChange((value ?? 'manual') as Reason)}
                    onBlur={field.onBlur}
                    ref={field.ref}
                    name={field.name}
                  />
                )}
              />
              <Button type="submit" loading={isSubmitting} mt={{ base: 0, sm: 25 }}>
                {t('suppressions.add')}
              </Button>
            </Group>
            <FormOutcome saved={saved} problem={problem} />
          </Stack>
        </form>
      </Paper>

      <Paper withBorder p="md" radius="md" component="section" aria-label={t('suppressions.heading')}>
        <Stack>
          <TextInput
            type="search"
            label={t('suppressions.search')}
            maxLength={320}
            value={search}
            onChange={(event) => {
              setSearch(event.currentTarget.value);
              setPage(1);
            }}
          />
          {query.isPending ? (
            <Loading />
          ) : query.isError ? (
            <LoadError error={query.error} retry={() => void query.refetch()} />
          ) : rows.length === 0 ? (
            <Text c="dimmed">{debounced ? t('suppressions.noMatch', { search: debounced }) : t('suppressions.empty')}</Text>
          ) : (
            <>
              <Text size="sm" role="status">
                {t('suppressions.total', { count: meta?.total ?? rows.length })}
              </Text>
              <Table>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('suppressions.address')}</Table.Th>
                    <Table.Th>{t('suppressions.reason')}</Table.Th>
                    <Table.Th visibleFrom="sm">{t('suppressions.since')}</Table.Th>
                    <Table.Th>
                      <VisuallyHidden>{t('remove')}</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rows.map((row) => (
                    <Table.Tr key={row.address}>
                      <Table.Td style={{ overflowWrap: 'anywhere' }}>{row.address}</Table.Td>
                      <Table.Td>
                        <Text size="sm">{t(`suppressions.reasons.${row.reason}`)}</Text>
                      </Table.Td>
                      <Table.Td visibleFrom="sm">
                        <time dateTime={row.createdAt}>{since(row.createdAt)}</time>
                      </Table.Td>
                      <Table.Td>
                        <ActionIcon
                          variant="subtle"
                          color="red.9"
                          aria-label={t('suppressions.removeOne', { address: row.address })}
                          loading={remove.isPending && remove.variables === row.address}
                          onClick={() => remove.mutate(row.address)}
                        >
                          <span aria-hidden>✕</span>
                        </ActionIcon>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
              {meta && meta.totalPages > 1 && (
                <Group justify="center">
                  <Pagination total={meta.totalPages} value={page} onChange={setPage} aria-label={t('suppressions.pages')} />
                </Group>
              )}
            </>
          )}
        </Stack>
      </Paper>
    </Stack>
  );
}
