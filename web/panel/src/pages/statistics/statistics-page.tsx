/**
 * The Statistics area: a form's figures for a period and a dim cut, optionally beside a second
 * period, and a report grouped by a dim or by org unit. Anonymous forms: suppressed groups are
 * shown as suppressed, and a refused cut is explained with the floor.
 */
import { Button, Group, Paper, Select, SimpleGrid, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ApiProblem } from '../../api/errors';
import { LoadError, Loading } from '../../ui/area-state';
import { EmptyState } from '../../ui/empty-state';
import { fieldText } from '../../ui/problem-text';
import { useDrawnCount } from '../../ui/use-drawn-count';
import { FormPicker } from '../responses/form-picker';
import { useChosenForm } from '../responses/chosen-form';
import { formQuery, formsQuery, type Cut, type DescribedForm } from '../responses/responses-api';
import { AnonymityAlert, isAnonymityRefusal } from './anonymity-alert';
import { Notice } from './notice';
import { QuestionCard } from './question-card';
import { ReportTable } from './report-table';
import { statisticsQuery, type Statistics } from './statistics-api';
import { STATISTICS_NS } from './strings';

interface Controls {
  from: string;
  to: string;
  compare: boolean;
  from2: string;
  to2: string;
  dimKey: string;
  dimValue: string;
  groupBy: string;
}

const EMPTY: Controls = { from: '', to: '', compare: false, from2: '', to2: '', dimKey: '', dimValue: '', groupBy: '' };

function cutOf(from: string, to: string, c: Controls): Cut {
  return { from: from || undefined, to: to || undefined, dims: c.dimKey && c.dimValue ? { [c.dimKey]: c.dimValue } : {} };
}

function ControlsForm({ form, onApply }: { form: DescribedForm; onApply: (c: Controls) => void }) {
  const { t } = useTranslation(STATISTICS_NS);
  const { register, handleSubmit, watch, setValue, reset } = useForm<Controls>({ defaultValues: EMPTY });
  const compare = watch('compare');
  const dimKey = watch('dimKey');
  const groupBy = watch('groupBy');
  return (
    <Paper withBorder p="md" component="form" onSubmit={handleSubmit(onApply)} aria-label={t('period')}>
      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm">
        <TextInput type="date" label={t('from')} {...register('from')} />
        <TextInput type="date" label={t('to')} {...register('to')} />
        <Select
          label={t('dimKey')}
          data={[{ value: '', label: t('dimKeyNone') }, ...form.dims.map((d) => ({ value: d.key, label: d.key }))]}
          value={dimKey}
          onChange={(value) => setValue('dimKey', value ?? '')}
          allowDeselect={false}
        />
        <TextInput label={t('dimValue')} maxLength={200} disabled={!dimKey} {...register('dimValue')} />
      </SimpleGrid>
      <Switch mt="sm" label={t('compare')} {...register('compare')} />
      {compare && (
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm" mt="xs">
          <TextInput type="date" label={t('compareFrom')} {...register('from2')} />
          <TextInput type="date" label={t('compareTo')} {...register('to2')} />
        </SimpleGrid>
      )}
      <Select
        mt="sm"
        maw={360}
        label={t('groupBy')}
        data={[{ value: '', label: t('groupNone') }, { value: 'orgUnit', label: t('groupOrg') }, ...form.dims.map((d) => ({ value: `dim.${d.key}`, label: t('groupDim', { key: d.key }) }))]}
        value={groupBy}
        onChange={(value) => setValue('groupBy', value ?? '')}
        allowDeselect={false}
      />
      <Group mt="sm" gap="sm">
        <Button type="submit">{t('apply')}</Button>
        <Button
          variant="default"
          onClick={() => {
            reset(EMPTY);
            onApply(EMPTY);
          }}
        >
          {t('clear')}
        </Button>
      </Group>
    </Paper>
  );
}

function Problem({ error, retry }: { error: unknown; retry: () => void }) {
  const { t: tc } = useTranslation();
  if (isAnonymityRefusal(error)) return <AnonymityAlert error={error} />;
  return (
    <LoadError error={error} retry={retry}>
      {error instanceof ApiProblem && error.fields.map((field) => <Text key={field.path}>{`${field.path}: ${fieldText(tc, field)}`}</Text>)}
    </LoadError>
  );
}

function Summary({ stats, label }: { stats: Statistics; label: string | null }) {
  const { t, i18n } = useTranslation(STATISTICS_NS);
  const n = (value: number) => value.toLocaleString(i18n.language);
  return (
    <Text>
      {label ? <b>{label}: </b> : null}
      {t('responses', { count: stats.responseCount, n: n(stats.responseCount) })} · {t('completed', { n: n(stats.completedCount) })} {stats.from || stats.to ? ` · ${t('covered', { from: stats.from ?? t('open'), to: stats.to ?? t('open') })}` : ''}
    </Text>
  );
}

/** The question cards: the first row at once, so the first chart paints early; the rest as the browser is idle. */
function QuestionCards({ all, periods }: { all: Statistics[]; periods: string[] }) {
  const questions = all[0].questions;
  const drawn = useDrawnCount(questions.length, 2, 4);
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }}>
      {questions.slice(0, drawn).map((question) => (
        <QuestionCard key={question.id} figures={all.map((s) => s.questions.find((q) => q.id === question.id))} periods={periods} />
      ))}
    </SimpleGrid>
  );
}

function Figures({ form, controls }: { form: DescribedForm; controls: Controls }) {
  const { t, i18n } = useTranslation(STATISTICS_NS);
  const a = useQuery(statisticsQuery(form.id, cutOf(controls.from, controls.to, controls)));
  const b = useQuery({ ...statisticsQuery(form.id, cutOf(controls.from2, controls.to2, controls)), enabled: controls.compare });
  if (a.isPending || (controls.compare && b.isPending)) return <Loading />;
  if (a.isError) return <Problem error={a.error} retry={() => void a.refetch()} />;
  if (controls.compare && b.isError) return <Problem error={b.error} retry={() => void b.refetch()} />;
  const periods = controls.compare ? [t('periodA'), t('periodB')] : [t('periodA')];
  const all = controls.compare && b.data ? [a.data, b.data] : [a.data];
  const format = (n: number) => new Intl.NumberFormat(i18n.language).format(n);
  return (
    <Stack>
      <Stack gap={2} role="status">
        {all.map((stats, p) => (
          <Summary key={p} stats={stats} label={controls.compare ? periods[p] : null} />
        ))}
      </Stack>
      {all.some((s) => s.truncated) && (
        <Notice role="status">
          {t('truncated', { scanned: format(Math.min(...all.map((s) => s.scanned))) })}
        </Notice>
      )}
      {a.data.responseCount === 0 && !controls.compare ? (
        <Text>{t('noResponses')}</Text>
      ) : (
        <QuestionCards all={all} periods={periods} />
      )}
      {controls.groupBy && (
        <>
          <Title order={2} size="h4">
            {t('groups')}
          </Title>
          <ReportTable formId={form.id} cut={cutOf(controls.from, controls.to, controls)} groupBy={controls.groupBy} />
        </>
      )}
    </Stack>
  );
}

export function StatisticsPage() {
  const { t } = useTranslation(STATISTICS_NS);
  const [formId, setFormId] = useChosenForm();
  const [controls, setControls] = useState<Controls>(EMPTY);
  const queryClient = useQueryClient();
  // A form picked here: its whole figures asked for beside its description, not after it (the route's loader does so for the form chosen before).
  useEffect(() => {
    if (formId) void queryClient.prefetchQuery(statisticsQuery(formId, { dims: {} }));
  }, [formId, queryClient]);
  const forms = useQuery(formsQuery);
  const form = useQuery({ ...formQuery(formId ?? ''), enabled: formId !== null });
  return (
    <Stack>
      <Title order={1}>{t('title')}</Title>
      <Text>{t('intro')}</Text>
      {forms.isPending ? (
        <Loading />
      ) : forms.isError ? (
        <LoadError error={forms.error} retry={() => void forms.refetch()} />
      ) : forms.data.length === 0 ? (
        <EmptyState title={t('title')} body={t('noForms')} />
      ) : (
        <>
          <FormPicker
            value={formId}
            onChange={(id) => {
              setControls(EMPTY);
              setFormId(id);
            }}
          />
          {formId === null ? (
            <Text c="dimmed">{t('chooseForm')}</Text>
          ) : form.isPending ? (
            <Loading />
          ) : form.isError ? (
            <LoadError error={form.error} retry={() => void form.refetch()} />
          ) : (
            <>
              {form.data.anonymous && (
                <Notice role="note">
                  {t('anonymousNote')}
                </Notice>
              )}
              <ControlsForm key={form.data.id} form={form.data} onApply={setControls} />
              <Figures form={form.data} controls={controls} />
            </>
          )}
        </>
      )}
    </Stack>
  );
}
