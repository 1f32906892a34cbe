/** One case: its steps and deadline in the company's time zone, the response that opened it, its history, and what to do. */
import { Anchor, Badge, Group, List, Paper, SimpleGrid, Stack, Text, Timeline, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { LoadError, Loading } from '../../ui/area-state';
import { CaseActions } from './case-actions';
import { NS } from './strings';
import { caseQuery, instantText, type CasePageView } from './treatments-api';

function Section({ id, title, children }: { id: string; title: string; children: React.ReactNode }) {
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby={id}>
      <Title order={2} size="h4" id={id} mb="sm">
        {title}
      </Title>
      {children}
    </Paper>
  );
}

function Steps({ view }: { view: CasePageView }) {
  const { t, i18n } = useTranslation(NS);
  const at = (iso: string) => instantText(iso, i18n.language, view.timeZone);
  return (
    <Section id="steps-heading" title={t('case.steps')}>
      <List type="ordered" spacing="xs">
        {view.steps.map((step, index) => (
          <List.Item key={index} fw={index === view.stepIndex ? 700 : undefined}>
            {t('case.stepLine', { name: step.name, responsible: step.responsible, days: step.dueInWorkingDays })}
            {index === view.stepIndex && view.status === 'open' ? (
              <Text span size="sm">
                {' '}
                — {t('case.current')}
                {view.dueAt ? (
                  <>
                    , <time dateTime={view.dueAt}>{t('case.due', { at: at(view.dueAt) })}</time>
                  </>
                ) : null}
              </Text>
            ) : null}
          </List.Item>
        ))}
      </List>
      <Text size="sm" c="dimmed" mt="sm">
        {t('case.zone', { zone: view.timeZone })}
      </Text>
    </Section>
  );
}

function ResponseCard({ view }: { view: CasePageView }) {
  const { t, i18n } = useTranslation(NS);
  const response = view.response;
  return (
    <Section id="response-heading" title={t('case.response')}>
      {!response ? (
        <Text c="dimmed">{t('case.noResponse')}</Text>
      ) : (
        <Stack gap="xs">
          {response.respondentName ? <Text size="sm">{t('case.respondent', { name: response.respondentName })}</Text> : null}
          <Text size="sm" c="dimmed">
            {t('case.received', { at: instantText(response.createdAt, i18n.language, view.timeZone) })}
          </Text>
          {response.answers.length === 0 ? (
            <Text c="dimmed">{t('case.noAnswers')}</Text>
          ) : (
            <dl style={{ margin: 0 }}>
              {response.answers.map((a, index) => (
                <div key={index} style={{ marginBottom: 8 }}>
                  <Text component="dt" fw={600} size="sm">
                    {a.question}
                  </Text>
                  <Text component="dd" ms={0} style={{ overflowWrap: 'anywhere' }}>
                    {a.answer}
                  </Text>
                </div>
              ))}
            </dl>
          )}
        </Stack>
      )}
    </Section>
  );
}

function History({ view }: { view: CasePageView }) {
  const { t, i18n } = useTranslation(NS);
  return (
    <Section id="history-heading" title={t('case.history')}>
      <Timeline active={view.history.length - 1} bulletSize={14} lineWidth={2}>
        {view.history.map((entry, index) => (
          <Timeline.Item
            key={index}
            title={t(`case.actions.${entry.action}`, { step: entry.stepIndex + 1, outcome: entry.outcome ? t(`outcomes.${entry.outcome}`) : '—' })}
          >
            <Text size="sm" c="dimmed">
              <time dateTime={entry.at}>{instantText(entry.at, i18n.language, view.timeZone)}</time>
            </Text>
            {entry.reason ? (
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                {t('case.historyReason', { reason: entry.reason })}
              </Text>
            ) : null}
          </Timeline.Item>
        ))}
      </Timeline>
    </Section>
  );
}

export function CasePage() {
  const { t, i18n } = useTranslation(NS);
  const { id } = useParams({ strict: false }) as { id: string };
  const query = useQuery(caseQuery(id));
  return (
    <Stack>
      <Anchor component={Link} to="/treatments" size="sm">
        ← {t('case.back')}
      </Anchor>
      {query.isPending ? (
        <Loading />
      ) : query.isError ? (
        <LoadError error={query.error} retry={() => void query.refetch()} />
      ) : (
        <>
          <Group gap="sm" wrap="wrap">
            <Title order={1}>{t('case.title', { number: query.data.number })}</Title>
            <Badge color={query.data.status === 'open' ? (query.data.overdue ? 'red.9' : 'blue.8') : 'gray.7'} size="lg">
              {query.data.overdue ? t('status.overdue') : t(`status.${query.data.status}`)}
            </Badge>
          </Group>
          <Text>
            {t('case.form')}: {query.data.formName} · {t('case.flow')}: {query.data.flowKey}
          </Text>
          <Text size="sm" c="dimmed">
            {t('case.opened')}: {instantText(query.data.openedAt, i18n.language, query.data.timeZone)}
            {query.data.closedAt ? ` · ${t('case.closedAt')}: ${instantText(query.data.closedAt, i18n.language, query.data.timeZone)}` : ''}
          </Text>
          {query.data.chainedFromId ? <Text size="sm">{t('case.chained')}</Text> : null}
          {query.data.outcome ? (
            <Text>
              {t('case.outcome', { outcome: t(`outcomes.${query.data.outcome}`) })}
              {query.data.reason ? ` — ${t('case.reason', { reason: query.data.reason })}` : ''}
            </Text>
          ) : null}
          <CaseActions view={query.data} />
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <Steps view={query.data} />
            <ResponseCard view={query.data} />
          </SimpleGrid>
          <History view={query.data} />
        </>
      )}
    </Stack>
  );
}
