/** One response: its answers as the respondent saw the questions (in their order when the form shuffles), its invite, its treatment cases; delete with confirmation. */
import { Anchor, Badge, Button, Group, List, Modal, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { notify } from '../../ui/notify';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadError, Loading } from '../../ui/area-state';
import { problemText } from '../../ui/problem-text';
import { answerText } from './answer-text';
import { deleteResponse, formQuery, responseQuery, type DescribedForm, type ResponseContext } from './responses-api';
import { RESPONSES_NS } from './strings';
import { ProblemAlert } from '../../ui/problem-alert';

type PresentedOrder = ResponseContext['response']['presentedOrder'];

/** Items in the order the respondent was shown (ids as stored), the form's order when none was stored. */
function inOrder<T extends { id: string }>(items: T[], ids: string[] | undefined): T[] {
  return ids ? [...items].sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id)) : items;
}

/** The answers, each section's questions in the order this respondent saw them (presentedOrder), with options shown shuffled listed in their order. */
function Answers({ form, answers, order }: { form: DescribedForm; answers: Record<string, unknown>; order: PresentedOrder }) {
  const { t } = useTranslation(RESPONSES_NS);
  return (
    <Stack gap="md">
      {form.sections.map((section) => {
        const seen = order?.[section.id];
        return (
          <Paper key={section.id} withBorder p="md">
            <Title order={3} size="h5" mb="xs">
              {section.name}
            </Title>
            {seen?.questions && (
              <Text size="sm" c="dimmed" mb="xs">
                {t('response.shuffledQuestions')}
              </Text>
            )}
            <Stack component="dl" gap="sm" m={0}>
              {inOrder(section.questions, seen?.questions).map((question) => {
                const shown = Object.hasOwn(answers, question.id);
                const text = shown ? answerText(t, question, answers[question.id]) : '';
                const optionIds = seen?.options?.[question.id];
                const options = optionIds && inOrder(question.options ?? [], optionIds).map((option) => option.name);
                return (
                  <div key={question.id} data-question={question.id}>
                    <Text component="dt" fw={600}>
                      {question.name}
                    </Text>
                    <Text component="dd" m={0} c={shown && text ? undefined : 'dimmed'} style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                      {!shown ? t('response.notShown') : text || t('response.noAnswer')}
                    </Text>
                    {options && (
                      <Text component="dd" m={0} size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                        {t('response.optionsShown', { options: options.join('; ') })}
                      </Text>
                    )}
                  </div>
                );
              })}
            </Stack>
          </Paper>
        );
      })}
    </Stack>
  );
}

function Facts({ data }: { data: ResponseContext }) {
  const { t, i18n } = useTranslation(RESPONSES_NS);
  const { response, invite, cases } = data;
  const when = (iso: string) => new Date(iso).toLocaleString(i18n.language, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }) + ' UTC';
  const who = response.respondent;
  const dims = Object.entries(response.dims);
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }}>
      <Paper withBorder p="md">
        <Stack gap={4}>
          <Text>
            <b>{t('response.received')}:</b> {when(response.createdAt)}
          </Text>
          <Text>
            <b>{t('response.completed')}:</b> {response.completedAt ? when(response.completedAt) : t('response.notCompleted')}
          </Text>
          <Text style={{ overflowWrap: 'anywhere' }}>
            <b>{t('response.respondent')}:</b> {who ? [who.name, who.email, who.phone, who.externalId].filter(Boolean).join(' · ') : t('response.unknownRespondent')}
          </Text>
          <Text style={{ overflowWrap: 'anywhere' }}>
            <b>{t('response.dims')}:</b> {dims.length ? dims.map(([k, v]) => `${k}: ${v}`).join(' · ') : t('response.noDims')}
          </Text>
        </Stack>
      </Paper>
      <Paper withBorder p="md">
        <Title order={2} size="h5">
          {t('response.invite')}
        </Title>
        {invite ? (
          <Text style={{ overflowWrap: 'anywhere' }}>
            {[invite.name, invite.email, invite.phone, invite.externalId].filter(Boolean).join(' · ')} — {t('response.inviteStatus', { status: invite.status })}
          </Text>
        ) : (
          <Text c="dimmed">{t('response.noInvite')}</Text>
        )}
        <Title order={2} size="h5" mt="sm">
          {t('response.cases')}
        </Title>
        {cases.length === 0 ? (
          <Text c="dimmed">{t('response.noCases')}</Text>
        ) : (
          <List spacing={4}>
            {cases.map((c) => (
              <List.Item key={c.id}>
                <Group gap={6} wrap="wrap">
                  <Text>{t('response.caseLine', { number: c.number, flow: c.flowKey, status: c.status })}</Text>
                  {c.stepName && <Badge variant="light">{t('response.caseStep', { step: c.stepName })}</Badge>}
                  {c.dueAt && c.status === 'open' && <Text size="sm">{t('response.caseDue', { due: when(c.dueAt) })}</Text>}
                  {c.outcome && <Text size="sm">{t('response.caseOutcome', { outcome: c.outcome })}</Text>}
                </Group>
              </List.Item>
            ))}
          </List>
        )}
      </Paper>
    </SimpleGrid>
  );
}

function DeleteResponse({ id }: { id: string }) {
  const { t } = useTranslation(RESPONSES_NS);
  const { t: tc } = useTranslation();
  const [open, setOpen] = useState(false);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const remove = useMutation({
    mutationFn: () => deleteResponse(id),
    onSuccess: async () => {
      notify({ closeButtonProps: { 'aria-label': t('response.close') }, color: 'green', message: t('response.deleted') });
      queryClient.removeQueries({ queryKey: ['responses', 'one', id] });
      await queryClient.invalidateQueries({ queryKey: ['responses'] });
      await queryClient.invalidateQueries({ queryKey: ['statistics'] });
      await navigate({ to: '/responses' });
    },
  });
  return (
    <>
      <Button color="red.9" variant="outline" onClick={() => setOpen(true)}>
        {t('response.delete')}
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={t('response.deleteTitle')} closeButtonProps={{ 'aria-label': t('response.close') }}>
        <Stack>
          <Text>{t('response.deleteBody')}</Text>
          {remove.error && (
            <ProblemAlert>
              {problemText(tc, remove.error)}
            </ProblemAlert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setOpen(false)}>
              {t('response.cancel')}
            </Button>
            <Button color="red.9" loading={remove.isPending} onClick={() => remove.mutate()}>
              {t('response.confirmDelete')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}

export function ResponsePage() {
  const { t } = useTranslation(RESPONSES_NS);
  const { responseId } = useParams({ strict: false }) as { responseId: string };
  const one = useQuery(responseQuery(responseId));
  const form = useQuery({ ...formQuery(one.data?.response.formId ?? ''), enabled: one.isSuccess });
  return (
    <Stack>
      <Anchor component={Link} to="/responses">
        ← {t('response.back')}
      </Anchor>
      <Title order={1}>{form.data ? `${t('response.title')} — ${form.data.name}` : t('response.title')}</Title>
      {one.isPending || (one.isSuccess && form.isPending) ? (
        <Loading />
      ) : one.isError ? (
        <LoadError error={one.error} retry={() => void one.refetch()} />
      ) : form.isError ? (
        <LoadError error={form.error} retry={() => void form.refetch()} />
      ) : (
        <>
          <Facts data={one.data} />
          <Title order={2} size="h4">
            {t('response.answers')}
          </Title>
          <Answers form={form.data!} answers={one.data.response.answers} order={one.data.response.presentedOrder} />
          <Group>
            <DeleteResponse id={responseId} />
          </Group>
        </>
      )}
    </Stack>
  );
}
