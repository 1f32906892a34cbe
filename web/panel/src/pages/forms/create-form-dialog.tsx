/** The new-form dialog: a name and the slug of its public link, the server's field errors beside them. */
import { Button, Group, Stack, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { ApiProblem, applyFieldErrors, unwrap } from '../../api/errors';
import { fieldText, problemText } from '../../ui/problem-text';
import { Dialog } from './dialog';
import { FORMS } from './forms-api';
import { NS } from './strings';
import { ProblemAlert } from '../../ui/problem-alert';

type Values = { name: string; slug: string };

/** A slug from a name: lower-case ASCII letters, digits and hyphens. */
const slugOf = (name: string) =>
  name.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 63);

export function CreateFormDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation(NS);
  const { t: tc } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { register, handleSubmit, setError, setValue, getFieldState, formState } = useForm<Values>({ defaultValues: { name: '', slug: '' } });
  const create = useMutation({
    mutationFn: async (values: Values) => (await unwrap(api.POST('/forms', { body: values }))).data,
    onSuccess: async (detail) => {
      await queryClient.invalidateQueries({ queryKey: FORMS });
      onClose();
      void navigate({ to: '/forms/$formId', params: { formId: detail.form.id } });
    },
    onError: (error) => {
      if (error instanceof ApiProblem) applyFieldErrors(error, setError, ['name', 'slug'], (field) => fieldText(tc, field));
    },
  });
  const other = create.error instanceof ApiProblem && create.error.fields.length > 0 ? null : create.error;
  const name = register('name', { onChange: (event) => !getFieldState('slug').isDirty && setValue('slug', slugOf(event.target.value)) });
  return (
    <Dialog opened={opened} onClose={onClose} title={t('list.create')}>
      <form onSubmit={handleSubmit((values) => create.mutate(values))} noValidate>
        <Stack>
          <TextInput label={t('create.name')} required maxLength={200} {...name} error={formState.errors.name?.message} data-autofocus />
          <TextInput label={t('create.slug')} description={t('create.slugHelp')} required maxLength={63} {...register('slug')} error={formState.errors.slug?.message} />
          {other && (
            <ProblemAlert>
              {problemText(tc, other)}
            </ProblemAlert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('cancel')}
            </Button>
            <Button type="submit" loading={create.isPending}>
              {t('create.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Dialog>
  );
}
