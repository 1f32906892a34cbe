/** Name and panel language; a chosen language applies at once and follows the person to other browsers. */
import { Button, Group, NativeSelect, Paper, Stack, TextInput, Title } from '@mantine/core';
import { notify } from '../../ui/notify';
import { useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { api, type Session } from '../../api/client';
import { ApiProblem, applyFieldErrors, unwrap } from '../../api/errors';
import { adoptSession } from '../../api/session';
import { chooseLanguage, LANGUAGE_NAMES, LANGUAGES, type Language } from '../../i18n';
import { fieldText, problemText } from '../../ui/problem-text';
import { ACCOUNT_NS } from './strings';

export function ProfileForm({ session }: { session: Session }) {
  const { t } = useTranslation(ACCOUNT_NS);
  const { t: tc } = useTranslation();
  const queryClient = useQueryClient();
  const form = useForm<{ name: string; language: string }>({ defaultValues: { name: session.user.name, language: session.user.language ?? '' } });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async ({ name, language }) => {
    try {
      const { data } = await unwrap(api.PATCH('/account', { body: { name, language: language === '' ? null : (language as Language) } }));
      adoptSession(queryClient, data);
      if (language !== '') await chooseLanguage(language as Language);
      notify({ color: 'green', message: t('saved') });
    } catch (error) {
      if (error instanceof ApiProblem && error.code === 'VALIDATION_ERROR') applyFieldErrors(error, form.setError, ['name', 'language'], (field) => fieldText(tc, field));
      else notify({ color: 'red', message: problemText(tc, error) });
    }
  });
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="profile-title">
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack>
          <Title order={2} size="h3" id="profile-title">
            {t('profile')}
          </Title>
          <TextInput label={t('name')} autoComplete="name" required error={errors.name?.message} {...form.register('name', { required: tc('field.required') })} />
          <NativeSelect
            label={t('language')}
            data={[{ value: '', label: t('browserLanguage') }, ...LANGUAGES.map((language) => ({ value: language, label: LANGUAGE_NAMES[language] }))]}
            error={errors.language?.message}
            {...form.register('language')}
          />
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
