/** The Responses area: pick a form, filter its responses, choose the columns, open one, export the cut. */
import { Divider, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../ui/empty-state';
import { LoadError, Loading } from '../../ui/area-state';
import { ColumnChooser } from './column-chooser';
import { CutFilters } from './cut-filters';
import { ExportPanel } from './export-panel';
import { FormPicker } from './form-picker';
import { formQuery, formsQuery, type Cut, type DescribedForm } from './responses-api';
import { columnChoices, defaultColumns, ResponsesTable } from './responses-table';
import { RESPONSES_NS } from './strings';
import { useChosenForm } from './chosen-form';
import { useStoredState } from './use-stored-state';

function FormResponses({ form }: { form: DescribedForm }) {
  const { t } = useTranslation(RESPONSES_NS);
  const [cut, setCut] = useStoredState<Cut>(`quorum.panel.responses.cut.${form.id}`, { dims: {} });
  const [chosen, setChosen] = useStoredState<string[]>(`quorum.panel.responses.columns.${form.id}`, defaultColumns(form));
  const [problem, setProblem] = useState<unknown>(null);
  const onError = useCallback((error: unknown) => setProblem(error), []);
  return (
    <Stack>
      <Paper withBorder p="md">
        <Title order={2} size="h4" mb="sm">
          {t('filters.heading')}
        </Title>
        <CutFilters form={form} cut={cut} onApply={setCut} problem={problem} />
      </Paper>
      <Group justify="space-between" align="flex-end">
        <ColumnChooser choices={columnChoices(form, t)} chosen={chosen} onChange={setChosen} />
      </Group>
      <ResponsesTable form={form} cut={cut} chosen={chosen} onError={onError} />
      <Divider />
      <Title order={2} size="h4">
        {t('export.heading')}
      </Title>
      <ExportPanel formId={form.id} slug={form.slug} cut={cut} />
    </Stack>
  );
}

export function ResponsesPage() {
  const { t } = useTranslation(RESPONSES_NS);
  const [formId, setFormId] = useChosenForm();
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
          <FormPicker value={formId} onChange={setFormId} />
          {formId === null ? (
            <Text c="dimmed">{t('chooseForm')}</Text>
          ) : form.isPending ? (
            <Loading />
          ) : form.isError ? (
            <LoadError error={form.error} retry={() => void form.refetch()} />
          ) : (
            <FormResponses key={form.data.id} form={form.data} />
          )}
        </>
      )}
    </Stack>
  );
}
