/**
 * "Try the conditions": answers to the questions that conditions test, kept in the browser only;
 * the builder marks what they hide, decided by the respondent pages' own evaluator (definition.ts).
 */
import { MultiSelect, NumberInput, Paper, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { allQuestions, type ConditionDefinition, type Draft, type LeafConditionDefinition, type Question } from './definition';
import { NS } from './strings';

function testedKeys(condition: ConditionDefinition | undefined, into: Set<string>): Set<string> {
  if (!condition) return into;
  if ('all' in condition) condition.all.forEach((c) => testedKeys(c, into));
  else if ('any' in condition) condition.any.forEach((c) => testedKeys(c, into));
  else into.add((condition as LeafConditionDefinition).question);
  return into;
}

function TryInput({ question, value, onChange }: { question: Question; value: unknown; onChange: (value: unknown) => void }) {
  const { t } = useTranslation(NS);
  const label = question.name || question.key;
  const options = (question.options ?? []).map((o) => ({ value: o.key, label: o.name || o.key }));
  switch (question.type) {
    case 'RADIO':
    case 'SELECT':
      return <Select label={label} data={options} value={typeof value === 'string' ? value : null} onChange={onChange} clearable />;
    case 'CHECKBOX':
      return <MultiSelect label={label} data={options} value={Array.isArray(value) ? (value as string[]) : []} onChange={onChange} />;
    case 'BOOLEAN':
      return <Select label={label} data={[{ value: 'true', label: t('builder.yes') }, { value: 'false', label: t('builder.no') }]} value={value === undefined ? null : String(value)} onChange={(v) => onChange(v === null ? undefined : v === 'true')} clearable />;
    case 'NUMBER':
    case 'RANGE':
    case 'NPS':
    case 'STAR':
      return <NumberInput label={label} value={typeof value === 'number' ? value : ''} onChange={(v) => onChange(typeof v === 'number' ? v : undefined)} />;
    default:
      return <TextInput label={label} value={typeof value === 'string' ? value : ''} onChange={(e) => onChange(e.currentTarget.value || undefined)} />;
  }
}

export function TryConditions({ draft, answers, onChange }: { draft: Draft; answers: Record<string, unknown>; onChange: (answers: Record<string, unknown>) => void }) {
  const { t } = useTranslation(NS);
  const tested = new Set<string>();
  for (const section of draft.sections) {
    testedKeys(section.visibleIf, tested);
    section.questions.forEach((q) => testedKeys(q.visibleIf, tested));
  }
  const questions = allQuestions(draft).filter((q) => tested.has(q.key));
  if (questions.length === 0) return null;
  return (
    <Paper withBorder p="md">
      <Stack gap="xs">
        <Title order={2} size="h4">
          {t('builder.tryTitle')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('builder.tryBody')}
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {questions.map((q) => (
            <TryInput key={q.uid} question={q} value={answers[q.key]} onChange={(value) => onChange({ ...answers, [q.key]: value })} />
          ))}
        </SimpleGrid>
      </Stack>
    </Paper>
  );
}
