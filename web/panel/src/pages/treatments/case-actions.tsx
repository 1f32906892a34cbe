/** What a person may do to a case: fulfil its step, close it early with an outcome and a reason, or reopen it. */
import { Alert, Button, Group, Paper, Select, Stack, Text, Textarea, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { ApiProblem, applyFieldErrors, unwrap } from '../../api/errors';
import { fieldText, problemText } from '../../ui/problem-text';
import { NS } from './strings';
import { caseQuery, type CasePageView } from './treatments-api';

const EARLY_OUTCOMES = ['unfounded', 'no-response', 'duplicate', 'other'] as const;
type Act = 'advance' | 'close' | 'reopen';

export function CaseActions({ view }: { view: CasePageView }) {
  const { t } = useTranslation([NS, 'translation']);
  const client = useQueryClient();
  const [done, setDone] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState<Act | null>(null);
  const form = useForm<{ outcome: string; reason: string }>({ defaultValues: { outcome: '', reason: '' } });
  const { errors } = form.formState;
  const path = { params: { path: { id: view.id } } };

  async function act(name: Act, call: () => Promise<{ data: CasePageView }>) {
    setDone(null);
    setProblem(null);
    setBusy(name);
    try {
      const { data } = await call();
      client.setQueryData(caseQuery(view.id).queryKey, data);
      void client.invalidateQueries({ queryKey: ['treatments'], predicate: (q) => q.queryKey[1] !== 'case' });
      form.reset();
      setDone(t(`case.done.${name}`));
    } catch (error) {
      const rest = error instanceof ApiProblem ? applyFieldErrors(error, form.setError, ['outcome', 'reason'], (field) => fieldText(t, field)) : [];
      if (!(error instanceof ApiProblem && error.code === 'VALIDATION_ERROR' && rest.length === 0)) setProblem(problemText(t, error));
    } finally {
      setBusy(null);
    }
  }

  const close = form.handleSubmit((values) =>
    act('close', () => unwrap(api.POST('/treatments/{id}/close', { ...path, body: { outcome: values.outcome, reason: values.reason.trim() } }))),
  );
  const last = view.stepIndex === view.steps.length - 1;

  return (
    <Paper withBorder p="md" radius="md" component="section" aria-label={t('case.actionsLabel')}>
      <Stack>
        {view.status === 'open' ? (
          <>
            <Group wrap="wrap" gap="sm">
              <Button loading={busy === 'advance'} disabled={busy !== null} onClick={() => void act('advance', () => unwrap(api.POST('/treatments/{id}/advance', path)))}>
                {last ? t('case.advanceLast') : t('case.advance')}
              </Button>
              <Text size="sm" c="dimmed">
                {t('case.advanceHelp')}
              </Text>
            </Group>
            <form onSubmit={(event) => void close(event)} noValidate aria-labelledby="close-heading">
              <Stack gap="sm">
                <Title order={3} size="h5" id="close-heading">
                  {t('case.closeHeading')}
                </Title>
                <Controller
                  control={form.control}
                  name="outcome"
                  rules={{ required: t('field.required') }}
                  render={({ field }) => (
                    <Select
                      label={t('case.closeOutcome')}
                      required
                      data={EARLY_OUTCOMES.map((value) => ({ value, label: t(`outcomes.${value}`) }))}
                      value={field.value || null}
                      onChange={(value) => field.onChange(value ?? '')}
                      error={errors.outcome?.message}
                      allowDeselect={false}
                    />
                  )}
                />
                <Textarea
                  label={t('case.closeReason')}
                  description={t('case.closeReasonHelp')}
                  required
                  autosize
                  minRows={2}
                  maxLength={2000}
                  error={errors.reason?.message}
                  {...form.register('reason', { required: t('field.required'), validate: (v) => v.trim() !== '' || t('field.required') })}
                />
                <Group>
                  <Button type="submit" color="red.9" loading={busy === 'close'} disabled={busy !== null}>
                    {t('case.close')}
                  </Button>
                </Group>
              </Stack>
            </form>
          </>
        ) : (
          <Group wrap="wrap" gap="sm">
            <Button loading={busy === 'reopen'} onClick={() => void act('reopen', () => unwrap(api.POST('/treatments/{id}/reopen', path)))}>
              {t('case.reopen')}
            </Button>
            <Text size="sm" c="dimmed">
              {t('case.reopenHelp')}
            </Text>
          </Group>
        )}
        {problem ? (
          <Alert color="red.9" role="alert">
            {problem}
          </Alert>
        ) : done ? (
          <Alert color="green.9" role="status">
            {done}
          </Alert>
        ) : null}
      </Stack>
    </Paper>
  );
}
