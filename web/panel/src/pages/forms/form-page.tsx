/**
 * One form in the builder: questions beside their live preview, settings, export/import, versions,
 * alert rules, treatment flows and reminder schedules. Every change is checked by the server (a dry run of the save, the import's
 * validation) a moment after typing stops, so problems show beside their fields before saving;
 * saving asks before removing answered questions or options.
 */
import { Anchor, Badge, Button, Grid, Group, List, Stack, Tabs, Text, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notify } from '../../ui/notify';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { ApiProblem, unwrap } from '../../api/errors';
import { fieldText, problemText } from '../../ui/problem-text';
import { Loading, LoadError } from '../../ui/area-state';
import { Builder } from './builder';
import { allQuestions, fromFile, toFile, visibleKeys, type Draft } from './definition';
import { Dialog } from './dialog';
import { FieldErrors } from './field-errors';
import { FlowsTab } from './flows-tab';
import { RemindersTab } from './reminders-tab';
import { hasPermission, sessionQuery } from '../../api/session';
import { FORMS, formQuery, type FormDetail } from './forms-api';
import { GoalsTab } from './goals-tab';
import { JsonTab } from './json-tab';
import { SettingsTab } from './settings-tab';
import { PreviewPane } from './preview-pane';
import { NS } from './strings';
import { TryConditions } from './try-conditions';
import { VersionsTab } from './versions-tab';
import { ProblemAlert } from '../../ui/problem-alert';

type Removal = { kind: string; key: string; name: string; responses: number };

export function FormPage() {
  const { formId } = useParams({ strict: false }) as { formId: string };
  const detail = useQuery(formQuery(formId));
  if (detail.isPending) return <Loading />;
  if (detail.isError) return <LoadError error={detail.error} retry={() => void detail.refetch()} />;
  // a saved form starts a fresh draft from the server's answer (new ids included)
  return <FormEditor key={detail.data.form.updatedAt} detail={detail.data} />;
}

function FormEditor({ detail }: { detail: FormDetail }) {
  const { t } = useTranslation(NS);
  const { t: tc } = useTranslation();
  const queryClient = useQueryClient();
  const formId = detail.form.id;
  const [draft, setDraft] = useState<Draft>(() => fromFile(detail.definition));
  const [dirty, setDirty] = useState(false);
  const [errors, setErrors] = useState<Map<string, string>>(new Map());
  const [confirming, setConfirming] = useState<Removal[] | null>(null);
  const [tried, setTried] = useState<Record<string, unknown>>({});
  const edit = useCallback((change: (d: Draft) => Draft) => (setDraft(change), setDirty(true)), []);
  // An empty answer keeps the empty map it had: a new one would redraw every field that reads the errors.
  const clearErrors = () => setErrors((current) => (current.size === 0 ? current : new Map()));
  const file = useMemo(() => toFile(draft), [draft]);
  const [checked] = useDebouncedValue(file, 600);

  const showProblem = (error: unknown) => {
    if (error instanceof ApiProblem && error.code === 'VALIDATION_ERROR') setErrors(new Map(error.fields.map((f) => [f.path, fieldText(tc, f)])));
    else notify({ color: 'red', message: problemText(tc, error) });
  };

  // The live check: the save's dry run (the import's own validation, e-mail variables included).
  useEffect(() => {
    if (!dirty) return;
    let current = true;
    unwrap(api.PUT('/forms/{id}', { params: { path: { id: formId } }, body: { definition: checked, dryRun: true } })).then(
      () => current && clearErrors(),
      (error) => current && error instanceof ApiProblem && error.code === 'VALIDATION_ERROR' && setErrors(new Map(error.fields.map((f) => [f.path, fieldText(tc, f)]))),
    );
    return () => {
      current = false;
    };
  }, [checked, dirty, formId, tc]);

  const save = useMutation({
    mutationFn: async (confirmRemovals: boolean) => {
      const body = { definition: file, confirmRemovals };
      if (!confirmRemovals) {
        const check = (await unwrap(api.PUT('/forms/{id}', { params: { path: { id: formId } }, body: { ...body, dryRun: true } }))).data;
        if (check.answeredRemovals.length > 0) return { removals: check.answeredRemovals };
      }
      return { saved: (await unwrap(api.PUT('/forms/{id}', { params: { path: { id: formId } }, body }))).data };
    },
    onSuccess: async (result) => {
      if (result.removals) return setConfirming(result.removals);
      setConfirming(null);
      clearErrors();
      notify({ color: 'green', message: t(result.saved?.status === 'unchanged' ? 'page.unchanged' : 'page.saved') });
      await queryClient.invalidateQueries({ queryKey: FORMS });
    },
    onError: (error) => (setConfirming(null), showProblem(error)),
  });

  // reminders are sends: their tab is for members who may send (permission invites)
  const session = useQuery(sessionQuery).data;
  const tabs = ['builder', 'settings', 'json', 'versions', 'goals', 'flows', ...(session && hasPermission(session, 'invites') ? (['reminders'] as const) : [])] as const;
  // flows run on stored responses: their conditions name the saved form's questions
  const savedQuestions = useMemo(() => allQuestions(fromFile(detail.definition)), [detail.definition]);
  const hidden = useMemo(() => {
    const shown = visibleKeys(draft, tried);
    return new Set(draft.sections.flatMap((s) => s.questions).filter((q) => !shown.has(q.key)).map((q) => q.key));
  }, [draft, tried]);
  // The builder redraws only when the draft or the tried answers change, not when the debounced
  // check, its answer or the preview re-render this page: with 200 questions a redraw takes seconds.
  const builder = useMemo(() => <Builder draft={draft} edit={edit} hidden={hidden} />, [draft, edit, hidden]);

  return (
    <FieldErrors.Provider value={errors}>
      <Stack>
        <Anchor component={Link} to="/forms">
          ← {t('page.back')}
        </Anchor>
        <Group justify="space-between" wrap="wrap">
          <Stack gap={2}>
            <Title order={1}>{detail.form.name}</Title>
            <Group gap="xs">
              <Badge variant="light" color={detail.form.isClosed ? 'gray' : 'green'} c="dark.9">
                {t(detail.form.isClosed ? 'list.closed' : 'list.open')}
              </Badge>
              <Text size="sm">
                {t('list.responses')}: <span data-testid="response-count">{detail.form.responseCount}</span>
              </Text>
              <Anchor href={`/panel/invites?form=${formId}`} size="sm">
                {t('page.invites')}
              </Anchor>
            </Group>
            {detail.form.isPublic && (
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                {t('page.publicLink')}:{' '}
                <Anchor href={detail.publicUrl} target="_blank" rel="noreferrer" data-testid="public-link">
                  {detail.publicUrl}
                </Anchor>
              </Text>
            )}
          </Stack>
          <Group gap="xs">
            {dirty && <Text size="sm">{t('page.unsaved')}</Text>}
            <Button onClick={() => save.mutate(false)} loading={save.isPending}>
              {t('page.save')}
            </Button>
          </Group>
        </Group>
        {errors.size > 0 && (
          <ProblemAlert title={t('page.errors', { count: errors.size })}>
            <Stack gap={2}>
              {[...errors].slice(0, 10).map(([path, text]) => (
                <Text key={path} size="sm">
                  {path || '—'}: {text}
                </Text>
              ))}
            </Stack>
          </ProblemAlert>
        )}
        <Tabs defaultValue="builder" keepMounted={false}>
          <Tabs.List>
            {tabs.map((tab) => (
              <Tabs.Tab key={tab} value={tab}>
                {t(`page.tabs.${tab}`)}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          <Tabs.Panel value="builder" pt="md">
            <Grid gap="md">
              <Grid.Col span={{ base: 12, lg: 7 }}>
                <Stack>
                  <TryConditions draft={draft} answers={tried} onChange={setTried} />
                  {builder}
                </Stack>
              </Grid.Col>
              <Grid.Col span={{ base: 12, lg: 5 }}>
                <div style={{ position: 'sticky', top: 'var(--mantine-spacing-md)' }}>
                  <PreviewPane formId={formId} file={checked} />
                </div>
              </Grid.Col>
            </Grid>
          </Tabs.Panel>
          <Tabs.Panel value="settings" pt="md">
            <SettingsTab draft={draft} edit={edit} />
          </Tabs.Panel>
          <Tabs.Panel value="json" pt="md">
            <JsonTab draft={draft} onImport={(imported) => edit(() => fromFile({ ...(imported as object), slug: draft.slug }))} />
          </Tabs.Panel>
          <Tabs.Panel value="versions" pt="md">
            <VersionsTab formId={formId} />
          </Tabs.Panel>
          <Tabs.Panel value="goals" pt="md">
            <GoalsTab formId={formId} />
          </Tabs.Panel>
          <Tabs.Panel value="flows" pt="md">
            <FlowsTab formId={formId} questions={savedQuestions} />
          </Tabs.Panel>
          <Tabs.Panel value="reminders" pt="md">
            <RemindersTab formId={formId} />
          </Tabs.Panel>
        </Tabs>
      </Stack>
      <Dialog opened={confirming !== null} onClose={() => setConfirming(null)} title={t('page.confirmTitle')}>
        <Stack>
          <Text>{t('page.confirmBody')}</Text>
          <List>
            {confirming?.map((removal) => (
              <List.Item key={removal.key}>{t('page.confirmItem', { name: removal.name, key: removal.key, count: removal.responses })}</List.Item>
            ))}
          </List>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(null)}>
              {t('cancel')}
            </Button>
            <Button color="red.9" loading={save.isPending} onClick={() => save.mutate(true)}>
              {t('page.confirm')}
            </Button>
          </Group>
        </Stack>
      </Dialog>
    </FieldErrors.Provider>
  );
}
