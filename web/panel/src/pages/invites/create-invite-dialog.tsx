/** One new invite: contact, id and expiry; the server's field errors beside their fields. */
import { Alert, Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { ApiProblem, applyFieldErrors, unwrap } from '../../api/errors';
import { fieldText, problemText } from '../../ui/problem-text';
import { localToInstant } from '../integrations/format';
import { INVITES, type CreateBody } from './invites-api';
import { NS } from './strings';
import { ProblemAlert } from '../../ui/problem-alert';

interface Fields {
  name: string;
  email: string;
  phone: string;
  externalId: string;
  expiresAt: string;
}
const FIELDS = ['name', 'email', 'phone', 'externalId', 'expiresAt'] as const;

export function CreateInviteDialog({ formId, onClose }: { formId: string; onClose: () => void }) {
  const { t } = useTranslation(NS);
  const { t: tc } = useTranslation();
  const queryClient = useQueryClient();
  const [problem, setProblem] = useState<string | null>(null);
  const [created, setCreated] = useState<string | null>(null);
  const form = useForm<Fields>({ defaultValues: { name: '', email: '', phone: '', externalId: '', expiresAt: '' } });
  const { errors } = form.formState;
  const create = useMutation({
    mutationFn: async (fields: Fields) => {
      const body: CreateBody = {};
      for (const key of ['name', 'email', 'phone', 'externalId'] as const) if (fields[key].trim()) body[key] = fields[key].trim();
      const expiresAt = localToInstant(fields.expiresAt);
      if (expiresAt) body.expiresAt = expiresAt;
      return (await unwrap(api.POST('/forms/{id}/invites', { params: { path: { id: formId } }, body }))).data;
    },
    onSuccess: async (invite) => {
      setProblem(null);
      setCreated(t('create.created', { contact: invite.email ?? invite.phone }));
      form.reset();
      await queryClient.invalidateQueries({ queryKey: [...INVITES, formId] });
    },
    onError: (error) => {
      setCreated(null);
      setProblem(null);
      if (error instanceof ApiProblem && error.code === 'VALIDATION_ERROR') {
        if (applyFieldErrors(error, form.setError, FIELDS, (field) => fieldText(tc, field)).length === 0) return;
      }
      setProblem(problemText(tc, error));
    },
  });
  return (
    <Modal opened onClose={onClose} title={t('create.title')} closeButtonProps={{ 'aria-label': t('close') }}>
      <form onSubmit={(event) => void form.handleSubmit((fields) => create.mutate(fields))(event)} noValidate>
        <Stack>
          {problem && <ProblemAlert>{problem}</ProblemAlert>}
          {created && <Alert color="green.9" role="status">{created}</Alert>}
          <TextInput label={t('create.name')} maxLength={200} data-autofocus error={errors.name?.message} {...form.register('name')} />
          <TextInput label={t('create.email')} type="email" maxLength={320} error={errors.email?.message} {...form.register('email')} />
          <TextInput label={t('create.phone')} description={t('create.phoneHelp')} type="tel" maxLength={40} error={errors.phone?.message} {...form.register('phone')} />
          <TextInput label={t('create.externalId')} maxLength={200} error={errors.externalId?.message} {...form.register('externalId')} />
          <TextInput label={t('create.expiresAt')} type="datetime-local" error={errors.expiresAt?.message} {...form.register('expiresAt')} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>{t('close')}</Button>
            <Button type="submit" loading={create.isPending}>{t('create.submit')}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
