/**
 * The form's treatment flows: each with its condition (the builder's condition editor, over the
 * saved form's questions), its steps and its effectiveness check; add, edit (a flow is replaced by
 * its key) and remove. The server checks the file as `quorum form flow add` does.
 */
import { Badge, Button, Checkbox, Group, NumberInput, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { ApiProblem, unwrap } from '../../api/errors';
import { Loading, LoadError } from '../../ui/area-state';
import { EmptyState } from '../../ui/empty-state';
import { ProblemAlert } from '../../ui/problem-alert';
import { fieldText, problemText } from '../../ui/problem-text';
import { ConditionEditor } from './condition-editor';
import type { ConditionDefinition, Question } from './definition';
import { FieldErrors, useFieldErrors } from './field-errors';
import { flowsQuery, type FlowItem } from './forms-api';
import { NS } from './strings';

type Step = { name: string; responsible: string; dueInWorkingDays: number | '' };
type Check = { afterWorkingDays?: number; form?: string; failsWhen?: unknown };
type FlowFile = { key: string; name: string; when?: ConditionDefinition; steps: Step[]; effectivenessCheck?: Check };

const EMPTY: FlowFile = { key: '', name: '', steps: [{ name: '', responsible: '', dueInWorkingDays: 2 }] };

function StepFields({ step, n, onChange, onRemove }: { step: Step; n: number; onChange: (step: Step) => void; onRemove?: () => void }) {
  const { t } = useTranslation(NS);
  const errors = useFieldErrors();
  const path = `steps[${n - 1}]`;
  return (
    <Paper withBorder p="xs" component="li">
      <Group justify="space-between" mb={4}>
        <Text fw={500}>{t('flows.step', { n })}</Text>
        {onRemove && (
          <Button size="xs" variant="default" c="red.9" onClick={onRemove}>
            {t('flows.removeStep', { n })}
          </Button>
        )}
      </Group>
      <Group grow wrap="wrap" align="flex-start">
        <TextInput label={t('flows.stepName')} required maxLength={200} value={step.name} onChange={(e) => onChange({ ...step, name: e.currentTarget.value })} error={errors.get(`${path}.name`)} miw={180} />
        <TextInput label={t('flows.responsible')} required maxLength={200} value={step.responsible} onChange={(e) => onChange({ ...step, responsible: e.currentTarget.value })} error={errors.get(`${path}.responsible`)} miw={180} />
        <NumberInput label={t('flows.due')} required min={1} allowDecimal={false} value={step.dueInWorkingDays} onChange={(v) => onChange({ ...step, dueInWorkingDays: typeof v === 'number' ? v : '' })} error={errors.get(`${path}.dueInWorkingDays`)} miw={140} />
      </Group>
    </Paper>
  );
}

function FlowEditor({ formId, initial, questions, editing, onDone }: { formId: string; initial: FlowFile; questions: Question[]; editing: boolean; onDone: () => void }) {
  const { t } = useTranslation(NS);
  const { t: tc } = useTranslation();
  const queryClient = useQueryClient();
  const [flow, setFlow] = useState<FlowFile>(initial);
  const [errors, setErrors] = useState<Map<string, string>>(new Map());
  const check = flow.effectivenessCheck;
  const save = useMutation({
    mutationFn: async () => unwrap(api.PUT('/forms/{id}/flows', { params: { path: { id: formId } }, body: { flow } })),
    onSuccess: async () => (await queryClient.invalidateQueries({ queryKey: flowsQuery(formId).queryKey }), onDone()),
    onError: (error) => setErrors(error instanceof ApiProblem ? new Map(error.fields.map((f) => [f.path, fieldText(tc, f)])) : new Map([['', problemText(tc, error)]])),
  });
  const setStep = (i: number, step: Step) => setFlow((f) => ({ ...f, steps: f.steps.map((s, j) => (j === i ? step : s)) }));
  const general = [...errors].filter(([path]) => path === '' || path === 'when' || path === 'steps');
  return (
    <FieldErrors.Provider value={errors}>
      <Paper withBorder p="md" component="form" onSubmit={(event: FormEvent) => (event.preventDefault(), save.mutate())} aria-label={t(editing ? 'flows.editFor' : 'flows.add', { name: initial.name })}>
        <Stack gap="sm">
          {general.length > 0 && (
            <ProblemAlert title={general.map(([path, text]) => (path === 'when' ? `${t('flows.when')}: ${text}` : path === 'steps' ? `${t('flows.steps')}: ${text}` : text)).join(' ')} />
          )}
          <Group grow wrap="wrap" align="flex-start">
            <TextInput label={t('flows.key')} required maxLength={64} disabled={editing} value={flow.key} onChange={(e) => setFlow({ ...flow, key: e.currentTarget.value })} error={errors.get('key')} miw={160} />
            <TextInput label={t('flows.name')} required maxLength={200} value={flow.name} onChange={(e) => setFlow({ ...flow, name: e.currentTarget.value })} error={errors.get('name')} miw={200} />
          </Group>
          {!flow.when && <Text size="sm">{t('flows.needsCondition')}</Text>}
          <ConditionEditor value={flow.when} earlier={questions} path="when" onChange={(when) => setFlow({ ...flow, when })} labels={{ title: t('flows.when'), remove: t('flows.removeCondition') }} />
          <Title order={3} size="h5">
            {t('flows.steps')}
          </Title>
          <Stack component="ol" gap="xs" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {flow.steps.map((step, i) => (
              <StepFields key={i} step={step} n={i + 1} onChange={(next) => setStep(i, next)} onRemove={flow.steps.length > 1 ? () => setFlow((f) => ({ ...f, steps: f.steps.filter((_, j) => j !== i) })) : undefined} />
            ))}
          </Stack>
          <Button variant="light" size="xs" style={{ alignSelf: 'flex-start' }} disabled={flow.steps.length >= 20} onClick={() => setFlow((f) => ({ ...f, steps: [...f.steps, { name: '', responsible: '', dueInWorkingDays: 2 }] }))}>
            {t('flows.addStep')}
          </Button>
          {check?.form !== undefined ? (
            <Text size="sm">{t('flows.checkByForm', { form: check.form })}</Text>
          ) : (
            <Group align="flex-end" wrap="wrap">
              <Checkbox label={t('flows.check')} checked={check !== undefined} onChange={(e) => setFlow({ ...flow, effectivenessCheck: e.currentTarget.checked ? { afterWorkingDays: 10 } : undefined })} />
              {check !== undefined && (
                <NumberInput
                  label={t('flows.checkAfter')}
                  description={t('flows.checkHelp')}
                  min={1}
                  allowDecimal={false}
                  value={check.afterWorkingDays ?? ''}
                  onChange={(v) => setFlow({ ...flow, effectivenessCheck: { ...check, afterWorkingDays: typeof v === 'number' ? v : undefined } })}
                  error={errors.get('effectivenessCheck.afterWorkingDays') ?? errors.get('effectivenessCheck')}
                  maw={360}
                />
              )}
            </Group>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onDone}>
              {t('flows.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {t('flows.save')}
            </Button>
          </Group>
        </Stack>
      </Paper>
    </FieldErrors.Provider>
  );
}

/** `questions`: the saved form's, which a flow's condition names (flows run on stored responses). */
export function FlowsTab({ formId, questions }: { formId: string; questions: Question[] }) {
  const { t } = useTranslation(NS);
  const { t: tc } = useTranslation();
  const queryClient = useQueryClient();
  const flows = useQuery(flowsQuery(formId));
  const [editing, setEditing] = useState<{ file: FlowFile; existing: boolean } | null>(null);
  const remove = useMutation({
    mutationFn: async (key: string) => unwrap(api.DELETE('/forms/{id}/flows/{key}', { params: { path: { id: formId, key } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: flowsQuery(formId).queryKey }),
  });
  const fileOf = (flow: FlowItem) => flow.file as FlowFile;
  return (
    <Stack maw={900}>
      <Text>{t('flows.intro')}</Text>
      {remove.isError && <ProblemAlert title={problemText(tc, remove.error)} />}
      {editing ? (
        <FlowEditor formId={formId} initial={editing.file} questions={questions} editing={editing.existing} onDone={() => setEditing(null)} />
      ) : (
        <Button style={{ alignSelf: 'flex-start' }} onClick={() => setEditing({ file: EMPTY, existing: false })}>
          {t('flows.add')}
        </Button>
      )}
      {flows.isPending && <Loading />}
      {flows.isError && <LoadError error={flows.error} retry={() => void flows.refetch()} />}
      {flows.isSuccess && flows.data.length === 0 && !editing && <EmptyState title={t('flows.emptyTitle')} body={t('flows.emptyBody')} />}
      {flows.isSuccess &&
        flows.data.map((flow) => (
          <Paper key={flow.key} withBorder p="sm" data-flow-key={flow.key}>
            <Group justify="space-between" wrap="wrap">
              <Stack gap={2}>
                <Text fw={500}>{flow.name}</Text>
                <Group gap="xs">
                  <Text size="sm">{flow.key}</Text>
                  <Badge variant="light" color="gray" c="dark.9" tt="none">
                    {t('flows.summary', { count: fileOf(flow).steps.length })}
                  </Badge>
                  {fileOf(flow).effectivenessCheck && (
                    <Badge variant="light" color="green" c="dark.9" tt="none">
                      {t('flows.checked')}
                    </Badge>
                  )}
                </Group>
              </Stack>
              <Group gap="xs">
                <Button size="xs" variant="default" aria-label={t('flows.editFor', { name: flow.name })} onClick={() => setEditing({ file: fileOf(flow), existing: true })}>
                  {t('flows.edit')}
                </Button>
                <Button size="xs" variant="default" c="red.9" loading={remove.isPending} aria-label={t('flows.removeFor', { name: flow.name })} onClick={() => remove.mutate(flow.key)}>
                  {t('flows.remove')}
                </Button>
              </Group>
            </Group>
          </Paper>
        ))}
    </Stack>
  );
}
