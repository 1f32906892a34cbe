/** My account: name and language, password, two-step verification, and the sessions signed in. */
import { Stack, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { sessionQuery } from '../../api/session';
import { PasswordForm } from './password-form';
import { ProfileForm } from './profile-form';
import { SecondFactorCard } from './second-factor-card';
import { SessionsCard } from './sessions-card';
import { ACCOUNT_NS } from './strings';

export function AccountPage() {
  const { t } = useTranslation(ACCOUNT_NS);
  const session = useQuery(sessionQuery).data;
  if (!session) return null;
  return (
    <Stack maw={760}>
      <Title order={1}>{t('title')}</Title>
      <ProfileForm session={session} />
      <PasswordForm />
      <SecondFactorCard session={session} />
      <SessionsCard />
    </Stack>
  );
}
