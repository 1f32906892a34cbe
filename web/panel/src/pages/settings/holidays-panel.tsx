/** The Holidays tab: the company's own days off, skipped by follow-up deadlines. */
import { ActionIcon, Button, Group, Paper, Stack, Table, Text, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { ApiProblem, applyFieldErrors, unwrap } from '../../api/errors';
import { fieldText, problemText } from '../../ui/problem-text';
import { FormOutcome, LoadError, Loading } from '../../ui/area-state';
import { holidaysQuery } from './settings-api';
import { NS } from './strings';

/** A YYYY-MM-DD day as the person's language writes it (a calendar day: no time zone shift). */
function dayText(day: string, language: string): string {
  return new Intl.DateTimeFormat(language, { dateStyle: 'full', timeZone: 'UTC' }).format(new Date(`${day}T00:00:00Z`));
}

export function HolidaysPanel() {
  const { t, i18n } = useTranslation([NS, 'translation']);
  const client = useQueryClient();
  const query = useQuery(holidaysQuery);
  const form = useForm<{ day: string; name: string }>({ defaultValues: { day: '', name: '' } });
  const { errors, isSubmitting } = form.formState;
  const [saved, setSaved] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const refresh = (movedDeadlines: number, message: string) => {
    void client.invalidateQueries({ queryKey: holidaysQuery.queryKey });
    setSaved(movedDeadlines > 0 ? `${message} ${t('holidays.moved', { count: movedDeadlines })}` : message);
  };

  const submit = form.handleSubmit(async (values) => {
    setSaved(null);
    setProblem(null);
    try {
      const { data } = await unwrap(api.POST('/settings/holidays', { body: { day: values.day, name: values.name.trim() } }));
      form.reset();
      refresh(data.movedDeadlines, t('saved'));
    } catch (error) {
      const rest = error instanceof ApiProblem ? applyFieldErrors(error, form.setError, ['day', 'name'], (field) => fieldText(t, field)) : [];
      if (!(error instanceof ApiProblem && error.code === 'VALIDATION_ERROR' && rest.length === 0)) setProblem(problemText(t, error));
    }
  });

  const remove = useMutation({
    mutationFn: (day: string) => unwrap(api.DELETE('/settings/holidays/{day}', { params: { path: { day } } })),
    onMutate: () => {
      setSaved(null);
      setProblem(null);
    },
    onSuccess: ({ data }) => refresh(data.movedDeadlines, t('saved')),
    onError: (error) => setProblem(problemText(t, error)),
  });

  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="holidays-heading">
      <Stack>
        <Title order={2} size="h4" id="holidays-heading">
          {t('holidays.heading')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('holidays.help')}
        </Text>
        <form onSubmit={(event) => void submit(event)} noValidate>
          <Group align="flex-start" wrap="wrap">
            <TextInput
              type="date"
              label={t('holidays.day')}
              required
              error={errors.day?.message}
              {...form.register('day', { required: t('field.required') })}
            />
            <TextInput
              label={t('holidays.name')}
              required
              maxLength={200}
              style={{ flex: '1 1 12rem' }}
              error={errors.name?.message}
              {...form.register('name', { required: t('field.required') })}
            />
            <Button type="submit" loading={isSubmitting} mt={{ base: 0, sm: 25 }}>
              {t('holidays.add')}
            </Button>
          </Group>
        </form>
        <FormOutcome saved={saved} problem={problem} />
        {query.isPending ? (
          <Loading />
        ) : query.isError ? (
          <LoadError error={query.error} retry={() => void query.refetch()} />
        ) : query.data.length === 0 ? (
          <Text c="dimmed">{t('holidays.empty')}</Text>
        ) : (
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('holidays.day')}</Table.Th>
                <Table.Th>{t('holidays.name')}</Table.Th>
                <Table.Th>
                  <VisuallyHidden>{t('remove')}</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {query.data.map((holiday) => (
                <Table.Tr key={holiday.day}>
                  <Table.Td>
                    <time dateTime={holiday.day}>{dayText(holiday.day, i18n.language)}</time>
                  </Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{holiday.name}</Table.Td>
                  <Table.Td>
                    <ActionIcon
                      variant="subtle"
                      color="red.9"
                      aria-label={t('holidays.removeOne', { day: holiday.day })}
                      loading={remove.isPending && remove.variables === holiday.day}
                      onClick={() => remove.mutate(holiday.day)}
                    >
                      <span aria-hidden>✕</span>
                    </ActionIcon>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
    </Paper>
  );
}
