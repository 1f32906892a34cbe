/**
 * Two-step verification: set up (QR code and key, confirmed with a code), the recovery codes shown
 * once, and turning it off (password and a code).
 */
import { Alert, Box, Button, Code, Group, List, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { notify } from '../../ui/notify';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { api, type Session } from '../../api/client';
import { ApiProblem, applyFieldErrors, unwrap } from '../../api/errors';
import { sessionQuery } from '../../api/session';
import { fieldText, problemText } from '../../ui/problem-text';
import { ACCOUNT_NS } from './strings';

interface Enrolment {
  secret: string;
  otpauthUri: string;
  qrSvg: string;
}

function useFieldProblem() {
  const { t } = useTranslation(ACCOUNT_NS);
  const { t: tc } = useTranslation();
  return (field: { path: string; code: string; message: string }) =>
    field.code !== 'invalid_value' ? fieldText(tc, field) : field.path === 'password' ? t('wrongPassword') : t('wrongCode');
}

function Confirm({ enrolment, onDone }: { enrolment: Enrolment; onDone: (codes: string[]) => void }) {
  const { t } = useTranslation(ACCOUNT_NS);
  const { t: tc } = useTranslation();
  const describe = useFieldProblem();
  const form = useForm<{ code: string }>({ defaultValues: { code: '' } });
  const submit = form.handleSubmit(async ({ code }) => {
    try {
      const { data } = await unwrap(api.POST('/account/second-factor/confirm', { body: { code } }));
      onDone(data.recoveryCodes);
    } catch (error) {
      if (error instanceof ApiProblem && error.code === 'VALIDATION_ERROR') applyFieldErrors(error, form.setError, ['code'], describe);
      else notify({ color: 'red', message: problemText(tc, error) });
    }
  });
  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Stack>
        <Text>{t('scan')}</Text>
        {/* the SVG is drawn by the server's QR encoder from the otpauth URI: markup we produce, not user input */}
        <Box role="img" aria-label={t('qrLabel')} w={200} h={200} bg="white" dangerouslySetInnerHTML={{ __html: enrolment.qrSvg }} />
        <Text size="sm">
          {t('key')}: <Code data-testid="totp-secret">{enrolment.secret}</Code>
        </Text>
        <TextInput
          label={t('code')}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          required
          error={form.formState.errors.code?.message}
          {...form.register('code', { required: tc('field.required') })}
        />
        <Group>
          <Button type="submit" loading={form.formState.isSubmitting}>
            {t('confirm')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useTranslation(ACCOUNT_NS);
  return (
    <Stack>
      <Alert variant="filled" color="indigo.9" title={t('recoveryTitle')}>
        {t('recoveryHelp')}
      </Alert>
      <List spacing={4} data-testid="recovery-codes" style={{ fontFamily: 'monospace' }}>
        {codes.map((code) => (
          <List.Item key={code}>{code}</List.Item>
        ))}
      </List>
      <Group>
        <Button onClick={onDone}>{t('recoveryDone')}</Button>
      </Group>
    </Stack>
  );
}

function TurnOff({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation(ACCOUNT_NS);
  const { t: tc } = useTranslation();
  const describe = useFieldProblem();
  const form = useForm<{ password: string; code: string }>({ defaultValues: { password: '', code: '' } });
  const submit = form.handleSubmit(async (body) => {
    try {
      await unwrap(api.POST('/account/second-factor/disable', { body }));
      notify({ color: 'green', message: t('turnedOff') });
      onDone();
    } catch (error) {
      if (error instanceof ApiProblem && error.code === 'VALIDATION_ERROR') applyFieldErrors(error, form.setError, ['password', 'code'], describe);
      else notify({ color: 'red', message: problemText(tc, error) });
    }
  });
  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Stack>
        <Text size="sm">{t('turnOffHelp')}</Text>
        <PasswordInput
          label={t('currentPassword')}
          autoComplete="current-password"
          required
          error={form.formState.errors.password?.message}
          {...form.register('password', { required: tc('field.required') })}
        />
        <TextInput
          label={t('codeOrRecovery')}
          autoComplete="one-time-code"
          required
          error={form.formState.errors.code?.message}
          {...form.register('code', { required: tc('field.required') })}
        />
        <Group>
          <Button type="submit" color="red" loading={form.formState.isSubmitting}>
            {t('turnOff')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

export function SecondFactorCard({ session }: { session: Session }) {
  const { t } = useTranslation(ACCOUNT_NS);
  const { t: tc } = useTranslation();
  const queryClient = useQueryClient();
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [starting, setStarting] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: sessionQuery.queryKey });

  async function start() {
    setStarting(true);
    try {
      setEnrolment((await unwrap(api.POST('/account/second-factor'))).data);
    } catch (error) {
      notify({ color: 'red', message: problemText(tc, error) });
    } finally {
      setStarting(false);
    }
  }

  let body;
  if (codes) {
    body = (
      <RecoveryCodes
        codes={codes}
        onDone={() => {
          setCodes(null);
          void refresh();
        }}
      />
    );
  } else if (session.user.secondFactor) {
    body = (
      <>
        <Text>{t('secondFactorOnText')}</Text>
        <TurnOff onDone={() => void refresh()} />
      </>
    );
  } else if (enrolment) {
    body = (
      <Confirm
        enrolment={enrolment}
        onDone={(recoveryCodes) => {
          setEnrolment(null);
          setCodes(recoveryCodes);
        }}
      />
    );
  } else {
    body = (
      <>
        <Text>{t('secondFactorOff')}</Text>
        <Group>
          <Button onClick={() => void start()} loading={starting}>
            {t('setUp')}
          </Button>
        </Group>
      </>
    );
  }
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="second-factor-title">
      <Stack>
        <Title order={2} size="h3" id="second-factor-title">
          {t('secondFactor')}
        </Title>
        {body}
      </Stack>
    </Paper>
  );
}
