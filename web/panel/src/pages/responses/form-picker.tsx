/** The form whose responses (or figures) a page reads: a searchable list of the company's forms. */
import { Select } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formsQuery } from './responses-api';
import { RESPONSES_NS } from './strings';

export function FormPicker({ value, onChange }: { value: string | null; onChange: (id: string | null) => void }) {
  const { t } = useTranslation(RESPONSES_NS);
  const forms = useQuery(formsQuery);
  return (
    <Select
      label={t('form')}
      placeholder={t('formPlaceholder')}
      searchable
      maw={480}
      data={(forms.data ?? []).map((form) => ({ value: form.id, label: `${form.name} (${form.responseCount})` }))}
      value={value}
      onChange={onChange}
      disabled={forms.isPending}
      nothingFoundMessage={t('noForms')}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
