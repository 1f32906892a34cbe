/**
 * The Company tab: this month's quota, read-only (the operator sets the monthly cap with `quorum
 * company set`), then the company's name and settings (PATCH /settings), then its logo and colour.
 */
import { Autocomplete, Button, Group, NumberInput, Paper, Progress, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { ApiProblem, applyFieldErrors, unwrap } from '../../api/errors';
import { fieldText, problemText } from '../../ui/problem-text';
import { FormOutcome, LoadError, Loading } from '../../ui/area-state';
import { BrandSettings } from './brand-settings';
import { companySettingsQuery, type CompanySettingsView } from './settings-api';
import { NS } from './strings';

const LOCALES = ['en', 'pt-BR', 'es'] as const;
type Locale = (typeof LOCALES)[number];

interface Values {
  name: string;
  timeZone: string;
  defaultCountry: string;
  holidayCountry: string;
  /** '' : not set (the form's language, else the respondent's, else English) */
  locale: Locale | '';
  anonymityFloor: number | string;
}
const FIELDS = ['name', 'timeZone', 'defaultCountry', 'holidayCountry', 'locale', 'anonymityFloor'] as const;

const TIME_ZONES = Intl.supportedValuesOf('timeZone');

function valuesOf({ company, settings }: CompanySettingsView): Values {
  return {
    name: company.name,
    timeZone: settings.timeZone,
    defaultCountry: settings.defaultCountry,
    holidayCountry: settings.holidayCountry ?? '',
    locale: settings.locale ?? '',
    anonymityFloor: settings.anonymityFloor,
  };
}

export function GeneralSettings() {
  const query = useQuery(companySettingsQuery);
  if (query.isPending) return <Loading />;
  if (query.isError) return <LoadError error={query.error} retry={() => void query.refetch()} />;
  return (
    <Stack gap="lg">
      <QuotaCard quota={query.data.quota} />
      <CompanyForm view={query.data} />
      <BrandSettings view={query.data} />
    </Stack>
  );
}

function QuotaCard({ quota }: { quota: CompanySettingsView['quota'] }) {
  const { t, i18n } = useTranslation(NS);
  const number = (n: number) => n.toLocaleString(i18n.language);
  const share = (n: number) => (quota.limit === 0 ? 0 : Math.min(100, (n / quota.limit) * 100));
  const left = Math.max(0, quota.limit - quota.used - quota.reserved);
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="quota-heading">
      <Title order={2} size="h4" id="quota-heading">
        {t('quota.heading', { period: quota.period })}
      </Title>
      <Progress.Root size="lg" mt="sm" aria-label={t('quota.bar')}>
        <Progress.Section value={share(quota.used)} color="blue" aria-label={t('quota.used', { n: number(quota.used) })} />
        <Progress.Section value={share(quota.reserved)} color="yellow" aria-label={t('quota.reserved', { n: number(quota.reserved) })} />
      </Progress.Root>
      <Group mt="xs" gap="lg">
        <Text size="sm">{t('quota.used', { n: number(quota.used) })}</Text>
        <Text size="sm">{t('quota.reserved', { n: number(quota.reserved) })}</Text>
        <Text size="sm" fw={600}>
          {t('quota.left', { n: number(left), limit: number(quota.limit) })}
        </Text>
      </Group>
      <Text size="sm" mt="xs" c="dimmed">
        {t('quota.setByOperator')}
      </Text>
    </Paper>
  );
}

function CompanyForm({ view }: { view: CompanySettingsView }) {
  const { t } = useTranslation([NS, 'translation']);
  const client = useQueryClient();
  const form = useForm<Values>({ defaultValues: valuesOf(view) });
  const { errors, isSubmitting } = form.formState;
  const [saved, setSaved] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const save = useMutation({
    mutationFn: (values: Values) =>
      unwrap(
        api.PATCH('/settings', {
          body: {
            name: values.name,
            timeZone: values.timeZone.trim(),
            defaultCountry: values.defaultCountry.trim().toUpperCase(),
            holidayCountry: values.holidayCountry.trim() === '' ? null : values.holidayCountry.trim().toUpperCase(),
            locale: values.locale === '' ? null : values.locale,
            anonymityFloor: Number(values.anonymityFloor),
          },
        }),
      ),
    onSuccess: ({ data }) => {
      client.setQueryData(companySettingsQuery.queryKey, data);
      form.reset(valuesOf(data));
    },
  });

  const submit = form.handleSubmit(async (values) => {
    setSaved(null);
    setProblem(null);
    try {
      await save.mutateAsync(values);
      setSaved(t('saved'));
    } catch (error) {
      const rest = error instanceof ApiProblem ? applyFieldErrors(error, form.setError, FIELDS, (field) => fieldText(t, field)) : [];
      if (!(error instanceof ApiProblem && error.code === 'VALIDATION_ERROR' && rest.length === 0)) setProblem(problemText(t, error));
    }
  });

  const required = { required: t('field.required') };
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="company-heading">
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack>
          <Title order={2} size="h4" id="company-heading">
            {t('general.heading')}
          </Title>
          <TextInput label={t('general.name')} required maxLength={200} error={errors.name?.message} {...form.register('name', required)} />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Controller
              control={form.control}
              name="timeZone"
              rules={required}
              render={({ field }) => (
                <Autocomplete
                  label={t('general.timeZone')}
                  description={t('general.timeZoneHelp')}
                  required
                  data={TIME_ZONES}
                  limit={20}
                  maxLength={100}
                  error={errors.timeZone?.message}
                  value={field.value}
                  onChange={field.onChange}
                  onBlur={field.onBlur}
                  ref={field.ref}
                  name={field.name}
                />
              )}
            />
            <Controller
              control={form.control}
              name="locale"
              render={({ field }) => (
                <Select
                  label={t('general.locale')}
                  description={t('general.localeHelp')}
                  data={[{ value: '', label: t('locales.none') }, ...LOCALES.map((value) => ({ value, label: t(`locales.${value}`) }))]}
                  allowDeselect={false}
                  error={errors.locale?.message}
                  value={field.value}
                  onChange={(value) => field.onChange(value ?? '')}
                  onBlur={field.onBlur}
                  ref={field.ref}
                  name={field.name}
                />
              )}
            />
            <TextInput
              label={t('general.defaultCountry')}
              description={t('general.defaultCountryHelp')}
              required
              maxLength={2}
              autoCapitalize="characters"
              error={errors.defaultCountry?.message}
              {...form.register('defaultCountry', required)}
            />
            <TextInput
              label={t('general.holidayCountry')}
              description={t('general.holidayCountryHelp')}
              maxLength={2}
              autoCapitalize="characters"
              error={errors.holidayCountry?.message}
              {...form.register('holidayCountry')}
            />
            <Controller
              control={form.control}
              name="anonymityFloor"
              rules={required}
              render={({ field }) => (
                <NumberInput
                  label={t('general.anonymityFloor')}
                  description={t('general.anonymityFloorHelp')}
                  required
                  min={0}
                  allowDecimal={false}
                  allowNegative={false}
                  thousandSeparator={false}
                  error={errors.anonymityFloor?.message}
                  value={field.value}
                  onChange={field.onChange}
                  onBlur={field.onBlur}
                  ref={field.ref}
                  name={field.name}
                />
              )}
            />
          </SimpleGrid>
          <FormOutcome saved={saved} problem={problem} />
          <Group>
            <Button type="submit" loading={isSubmitting}>
              {t('save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
