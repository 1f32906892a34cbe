/**
 * The API's filters as controls: a period of UTC days and one field per declared dim. Applied on
 * submit; the server's field errors (from, to, dim.<key>) appear beside their fields.
 */
import { Button, Group, SimpleGrid, TextInput } from '@mantine/core';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ApiProblem } from '../../api/errors';
import { fieldText } from '../../ui/problem-text';
import type { Cut, DescribedForm } from './responses-api';
import { RESPONSES_NS } from './strings';

interface Values {
  from: string;
  to: string;
  dims: Record<string, string>;
}

export function CutFilters({ form, cut, onApply, problem, showDims = true }: { form: DescribedForm; cut: Cut; onApply: (cut: Cut) => void; problem: unknown; showDims?: boolean }) {
  const { t } = useTranslation(RESPONSES_NS);
  const { t: tc } = useTranslation();
  const { register, handleSubmit, reset, setError, formState } = useForm<Values>({ values: { from: cut.from ?? '', to: cut.to ?? '', dims: { ...cut.dims } } });

  useEffect(() => {
    if (!(problem instanceof ApiProblem)) return;
    for (const field of problem.fields) {
      const name = field.path === 'from' || field.path === 'to' ? field.path : field.path.startsWith('dim.') ? (`dims.${field.path.slice(4)}` as const) : null;
      if (name) setError(name as 'from', { type: field.code, message: fieldText(tc, field) });
    }
  }, [problem, setError, tc]);

  const submit = handleSubmit((values) =>
    onApply({ from: values.from || undefined, to: values.to || undefined, dims: Object.fromEntries(Object.entries(values.dims).filter(([, v]) => v)) }),
  );
  const dimError = (key: string) => formState.errors.dims?.[key]?.message;
  return (
    <form onSubmit={submit} aria-label={t('filters.heading')}>
      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm">
        <TextInput type="date" label={t('filters.from')} error={formState.errors.from?.message} {...register('from')} />
        <TextInput type="date" label={t('filters.to')} error={formState.errors.to?.message} {...register('to')} />
        {showDims &&
          form.dims.map((dim) => (
            <TextInput key={dim.key} label={t('filters.dim', { key: dim.key })} description={t('filters.dimHelp')} maxLength={200} error={dimError(dim.key)} {...register(`dims.${dim.key}`)} />
          ))}
      </SimpleGrid>
      <Group mt="sm" gap="sm">
        <Button type="submit">{t('filters.apply')}</Button>
        <Button
          variant="default"
          onClick={() => {
            reset({ from: '', to: '', dims: {} });
            onApply({ dims: {} });
          }}
        >
          {t('filters.clear')}
        </Button>
      </Group>
    </form>
  );
}
