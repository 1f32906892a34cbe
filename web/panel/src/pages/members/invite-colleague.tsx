/** The owner's "invite a colleague" dialog: an address and what they may do; field errors beside the field. */
import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { notify } from '../../ui/notify';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { ApiProblem, applyFieldErrors, unwrap } from '../../api/errors';
import { fieldText, problemText } from '../../ui/problem-text';
import { PermissionFields, type Grant } from './permission-fields';
import { MEMBERS_NS } from './strings';
import { ProblemAlert } from '../../ui/problem-alert';

interface InviteValues {
  email: string;
  grant: Grant;
}

export function InviteColleague({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation(MEMBERS_NS);
  const { t: tc } = useTranslation();
  const queryClient = useQueryClient();
  const [problem, setProblem] = useState<string | null>(null);
  const form = useForm<InviteValues>({ defaultValues: { email: '', grant: { owner: false, permissions: [] } } });
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async ({ email, grant }) => {
    setProblem(null);
    try {
      await unwrap(api.POST('/invitations', { body: { email, permissions: grant.permissions, owner: grant.owner } }));
      notify({ color: 'green', message: t('invited', { email }) });
      await queryClient.invalidateQueries({ queryKey: ['invitations'] });
      onClose();
    } catch (error) {
      if (error instanceof ApiProblem && error.code === 'VALIDATION_ERROR') {
        const rest = applyFieldErrors(error, form.setError, ['email'], (field) =>
          field.path === 'email' && field.code === 'not_unique' ? t('alreadyMember') : fieldText(tc, field),
        );
        if (rest.length > 0) setProblem(fieldText(tc, rest[0]));
        return;
      }
      setProblem(problemText(tc, error));
    }
  });

  return (
    <Modal opened onClose={onClose} title={t('inviteTitle')} closeButtonProps={{ 'aria-label': t('close') }}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack>
          <Text size="sm">{t('inviteHelp')}</Text>
          {problem && (
            <ProblemAlert>
              {problem}
            </ProblemAlert>
          )}
          <TextInput
            label={t('email')}
            type="email"
            autoComplete="off"
            required
            data-autofocus
            error={errors.email?.message}
            {...form.register('email', { required: tc('field.required') })}
          />
          <Controller control={form.control} name="grant" render={({ field }) => <PermissionFields value={field.value} onChange={field.onChange} />} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('cancel')}
            </Button>
            <Button type="submit" loading={isSubmitting}>
              {t('inviteSend')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
