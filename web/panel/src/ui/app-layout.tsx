/**
 * The signed-in frame: a header (burger on phones, company switcher, account menu with sign-out),
 * a navigation listing only the areas the session's permissions open, and the page.
 */
import { AppShell, Burger, Group, Menu, NativeSelect, NavLink, Text, UnstyledButton } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notify } from './notify';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, Outlet, useNavigate, useRouter, useRouterState } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { api, type Session } from '../api/client';
import { unwrap } from '../api/errors';
import { adoptSession, hasPermission, sessionQuery, signedOut } from '../api/session';
import { AREAS } from './areas';
import { problemText } from './problem-text';
import { SkipLink } from './skip-link';

function CompanySwitcher({ session }: { session: Session }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const router = useRouter();
  if (session.companies.length < 2) {
    return session.company ? <Text fw={500} truncate>{session.company.name}</Text> : null;
  }
  async function switchTo(companyId: string) {
    try {
      const { data } = await unwrap(api.PUT('/session/company', { body: { companyId } }));
      // every cached answer belonged to the other company
      queryClient.clear();
      adoptSession(queryClient, data);
      await router.invalidate();
    } catch (error) {
      notify({ color: 'red', message: problemText(t, error) });
    }
  }
  return (
    <NativeSelect
      aria-label={t('shell.company')}
      value={session.company?.id ?? ''}
      data={[
        ...(session.company ? [] : [{ value: '', label: t('shell.noCompany'), disabled: true }]),
        ...session.companies.map((company) => ({ value: company.id, label: company.name })),
      ]}
      onChange={(event) => void switchTo(event.currentTarget.value)}
      maw={240}
    />
  );
}

function AccountMenu({ session }: { session: Session }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  async function signOut() {
    try {
      await unwrap(api.DELETE('/session'));
    } catch {
      // the session is gone either way: leave this page
    }
    signedOut(queryClient);
    await navigate({ to: '/sign-in', search: {} });
  }
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <UnstyledButton aria-label={t('shell.accountMenu', { name: session.user.name })} px="xs" py={4}>
          <Text size="sm" fw={500} truncate maw={160}>
            {session.user.name}
          </Text>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{session.user.email}</Menu.Label>
        <Menu.Item component={Link} to="/account">
          {t('nav.account')}
        </Menu.Item>
        <Menu.Item onClick={() => void signOut()}>{t('shell.signOut')}</Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

export function AppLayout() {
  const { t } = useTranslation();
  const [opened, { toggle, close }] = useDisclosure();
  const { data: session } = useQuery(sessionQuery);
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  // the route's guard read the session before this renders; null only while signing out
  if (!session) return null;
  const areas = AREAS.filter((area) => area.permission === undefined || hasPermission(session, area.permission));
  return (
    <>
      <SkipLink />
      <AppShell header={{ height: 60 }} navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding="md">
        <AppShell.Header>
          <Group h="100%" px="md" justify="space-between" wrap="nowrap">
            <Group wrap="nowrap" gap="sm">
              <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label={t('shell.menu')} aria-expanded={opened} aria-controls="panel-navigation" />
              <Text component={Link} to="/" fw={700} size="lg">
                Quorum
              </Text>
            </Group>
            <Group wrap="nowrap" gap="xs">
              <CompanySwitcher session={session} />
              <AccountMenu session={session} />
            </Group>
          </Group>
        </AppShell.Header>
        <AppShell.Navbar p="sm" id="panel-navigation" aria-label={t('shell.navigation')}>
          <NavLink component={Link} to="/" label={t('nav.home')} active={pathname === '/'} onClick={close} />
          {areas.map((area) => (
            <NavLink key={area.path} component={Link} to={area.path} label={t(area.label)} active={pathname.startsWith(area.path)} onClick={close} />
          ))}
        </AppShell.Navbar>
        <AppShell.Main id="main" tabIndex={-1}>
          <Outlet />
        </AppShell.Main>
      </AppShell>
    </>
  );
}
