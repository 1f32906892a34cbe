/** The form's reminder schedules, one card per channel: next run and invites still to remind, set or remove. */
import { Button, Group, NumberInput, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { ApiProblem, unwrap } from '../../api/errors';
import { Loading, LoadError } from '../../ui/area-state';
import { notify } from '../../ui/notify';
import { fieldText, problemText } from '../../ui/problem-text';
import { formatWhen } from '../integrations/format';
import { remindersQuery, type ReminderSchedule } from './forms-api';
import { NS } from './strings';

const CHANNELS = ['email', 'whatsapp'] as const;
type Channel = (typeof CHANNELS)[number];
type Numbers = { afterDays: number | ''; maxReminders: number | ''; localHour: number | ''; finalDaysBefore: number | '' };

export function RemindersTab({ formId }: { formId: string }) {
  const { t } = useTranslation(NS);
  const schedules = useQuery(remindersQuery(formId));
  return (
    <Stack maw={760}>
      <Text>{t('reminders.intro')}</Text>
      {schedules.isPending && <Loading />}
      {schedules.isError && <LoadError error={schedules.error} retry={() => void schedules.refetch()} />}
      {schedules.isSuccess &&
        CHANNELS.map((channel) => (
          <ChannelSchedule key={`${channel}-${schedules.dataUpdatedAt}`} formId={formId} channel={channel} schedule={schedules.data.find((s) => s.channel === channel) ?? null} />
        ))}
    </Stack>
  );
}

function ChannelSchedule({ formId, channel, schedule }: { formId: string; channel: Channel; schedule: ReminderSchedule | null }) {
  const { t } = useTranslation(NS);
  const { t: tc } = useTranslation();
  const queryClient = useQueryClient();
  const [numbers, setNumbers] = useState<Numbers>({
    afterDays: schedule?.afterDays ?? 3,
    maxReminders: schedule?.maxReminders ?? 2,
    localHour: schedule?.localHour ?? 9,
    finalDaysBefore: schedule?.finalDaysBefore ?? '',
  });
  const [template, setTemplate] = useState({ name: '', language: '' });
  const path = { params: { path: { id: formId, channel } } };
  const done = (message: string) => async () => {
    notify({ color: 'green', message: t(message) });
    await queryClient.invalidateQueries({ queryKey: remindersQuery(formId).queryKey });
  };
  const save = useMutation({
    mutationFn: async () =>
      unwrap(
        api.PUT('/forms/{id}/reminders/{channel}', {
          ...path,
          body: {
            afterDays: Number(numbers.afterDays),
            maxReminders: Number(numbers.maxReminders),
            localHour: Number(numbers.localHour),
            finalDaysBefore: numbers.finalDaysBefore === '' ? null : numbers.finalDaysBefore,
            ...(channel === 'whatsapp' && template.name ? { template } : {}),
          },
        }),
      ),
    onSuccess: done('reminders.saved'),
    onError: (error) => !(error instanceof ApiProblem && error.code === 'VALIDATION_ERROR') && notify({ color: 'red', message: problemText(tc, error) }),
  });
  const remove = useMutation({ mutationFn: async () => unwrap(api.DELETE('/forms/{id}/reminders/{channel}', path)), onSuccess: done('reminders.removed') });
  const fieldError = (field: string) => {
    const problem = save.error instanceof ApiProblem ? save.error.fields.find((f) => f.path === field || f.path === `/${field}`) : undefined;
    return problem ? fieldText(tc, problem) : undefined;
  };
  const number = (field: keyof Numbers, label: string, min: number, max: number, description?: string) => (
    <NumberInput
      label={label}
      description={description}
      min={min}
      max={max}
      allowDecimal={false}
      value={numbers[field]}
      onChange={(v) => setNumbers((n) => ({ ...n, [field]: typeof v === 'number' ? v : '' }))}
      error={fieldError(field)}
      w={{ base: '100%', sm: 220 }}
    />
  );
  const headingId = `reminders-${channel}`;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby={headingId} data-channel={channel}>
      <Stack gap="sm">
        <Title order={2} size="h4" id={headingId}>
          {t(`reminders.${channel}`)}
        </Title>
        <Text size="sm" data-testid={`reminder-status-${channel}`}>
          {schedule === null
            ? t('reminders.none')
            : schedule.nextRunAt
              ? t('reminders.status', { when: formatWhen(schedule.nextRunAt), count: schedule.pending })
              : t('reminders.statusIdle', { count: schedule.pending })}
        </Text>
        <form onSubmit={(event) => (event.preventDefault(), save.mutate())}>
          <Stack gap="sm">
            <Group align="flex-end" wrap="wrap">
              {number('afterDays', t('reminders.afterDays'), 1, 90, t('reminders.afterDaysHelp'))}
              {number('maxReminders', t('reminders.maxReminders'), 0, 10)}
              {number('localHour', schedule ? t('reminders.localHour', { zone: schedule.timeZone }) : t('reminders.localHourCompany'), 0, 23)}
              {number('finalDaysBefore', t('reminders.finalDaysBefore'), 1, 30, t('reminders.finalHelp'))}
            </Group>
            {channel === 'whatsapp' && (
              <Group align="flex-start" wrap="wrap">
                <TextInput label={t('reminders.template')} description={t('reminders.templateHelp')} maxLength={512} value={template.name} onChange={(e) => setTemplate((v) => ({ ...v, name: e.currentTarget.value }))} />
                <TextInput label={t('reminders.templateLanguage')} maxLength={15} value={template.language} onChange={(e) => setTemplate((v) => ({ ...v, language: e.currentTarget.value }))} />
              </Group>
            )}
            <Group>
              <Button type="submit" loading={save.isPending}>
                {t('reminders.save')}
              </Button>
              {schedule !== null && (
                <Button variant="default" color="red.9" loading={remove.isPending} onClick={() => remove.mutate()}>
                  {t('reminders.remove')}
                </Button>
              )}
            </Group>
          </Stack>
        </form>
      </Stack>
    </Paper>
  );
}
