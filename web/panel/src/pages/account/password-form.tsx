/** Change the password: the current one, the new one twice; the other sessions are signed out. */
import { Button, Group, Paper, PasswordInput, Stack, Title } from '@mantine/core';
import { notify } from '../../ui/notify';
import { useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { ApiProblem, applyFieldErrors, unwrap } from '../../api/errors';
import { fieldText, problemText } from '../../ui/problem-text';
import { PASSWORD_MAX, PASSWORD_MIN } from '../one-time/password-fields';
import { ACCOUNT_NS } from './strings';

interface PasswordValues {
  currentPassword: string;
  newPassword: string;
  confirm: string;
}

export function PasswordForm() {
  const { t } = useTranslation(ACCOUNT_NS);
  const { t: tc } = useTranslation();
  const queryClient = useQueryClient();
  const form = useForm<PasswordValues>({ defaultValues: { currentPassword: '', newPassword: '', confirm: '' } });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async ({ currentPassword, newPassword }) => {
    try {
      const { data } = await unwrap(api.PUT('/account/password', { body: { currentPassword, newPassword } }));
      form.reset();
      notify({ color: 'green', message: t('passwordChanged', { count: data.otherSessionsEnded }) });
      await queryClient.invalidateQueries({ queryKey: ['account-sessions'] });
    } catch (error) {
      if (error instanceof ApiProblem && error.code === 'VALIDATION_ERROR') {
        applyFieldErrors(error, form.setError, ['currentPassword', 'newPassword'], (field) =>
          field.path === 'currentPassword' && field.code === 'invalid_value' ? t('wrongPassword') : fieldText(tc, field),
        );
      } else notify({ color: 'red', message: problemText(tc, error) });
    }
  });
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="password-title">
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack>
          <Title order={2} size="h3" id="password-title">
            {t('password')}
          </Title>
          <PasswordInput
            label={t('currentPassword')}
            autoComplete="current-password"
            required
            error={errors.currentPassword?.message}
            {...form.register('currentPassword', { required: tc('field.required') })}
          />
          <PasswordInput
            label={t('newPassword')}
            description={t('newPasswordHelp', { min: PASSWORD_MIN })}
            autoComplete="new-password"
            required
            error={errors.newPassword?.message}
            {...form.register('newPassword', {
              required: tc('field.required'),
              minLength: { value: PASSWORD_MIN, message: tc('field.too_short_chars', { min: PASSWORD_MIN }) },
              maxLength: { value: PASSWORD_MAX, message: tc('field.too_long_chars', { max: PASSWORD_MAX }) },
            })}
          />
          <PasswordInput
            label={t('confirmPassword')}
            autoComplete="new-password"
            required
            error={errors.confirm?.message}
            {...form.register('confirm', { required: tc('field.required'), validate: (value, values) => value === values.newPassword || t('mismatch') })}
          />
          <Group>
            <Button type="submit" loading={isSubmitting}>
              {t('changePassword')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
