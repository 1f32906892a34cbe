import { Container, Paper, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { LanguagePicker } from './language-picker';
import { SkipLink } from './skip-link';

/** The pages outside the session (sign-in, one-time links): one card, the language choice below. */
export function AuthLayout({ title, children }: { title: string; children: ReactNode }) {
  return (
    <>
      <SkipLink />
      <Container size={420} py="xl" component="main" id="main" tabIndex={-1}>
        <Stack>
          <Title order={1} ta="center">
            Quorum
          </Title>
          <Paper withBorder shadow="sm" p="lg" radius="md">
            <Title order={2} size="h3" mb="md">
              {title}
            </Title>
            {children}
          </Paper>
          <LanguagePicker />
        </Stack>
      </Container>
    </>
  );
}
