/**
 * The visual editor of a `visibleIf` condition: all or any of a list of tests on earlier
 * questions (the condition language of the form file; nested groups stay as written and are
 * edited in the JSON).
 */
import { Button, Group, NumberInput, Paper, Select, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ConditionDefinition, LeafConditionDefinition, Question } from './definition';
import { useFieldErrors } from './field-errors';
import { NS } from './strings';

type Op = 'equals' | 'notEquals' | 'gte' | 'lte' | 'answered' | 'unanswered';
const CHOICE = new Set(['RADIO', 'SELECT', 'CHECKBOX']);
const ORDERED = new Set(['NUMBER', 'RANGE', 'NPS', 'STAR', 'DATE', 'TIME', 'DATETIME']);
const NUMERIC = new Set(['NUMBER', 'RANGE', 'NPS', 'STAR']);

function opsFor(type: string | undefined): Op[] {
  if (type === 'RANKING' || type === 'MATRIX' || type === 'FILE') return ['answered', 'unanswered'];
  return ORDERED.has(type ?? '') ? ['equals', 'notEquals', 'gte', 'lte', 'answered', 'unanswered'] : ['equals', 'notEquals', 'answered', 'unanswered'];
}

function opOf(leaf: LeafConditionDefinition): Op {
  if (leaf.answered !== undefined) return leaf.answered ? 'answered' : 'unanswered';
  return (['equals', 'notEquals', 'gte', 'lte'] as const).find((op) => leaf[op] !== undefined) ?? 'equals';
}

function leafWith(question: string, op: Op, value: string | number | boolean | undefined): LeafConditionDefinition {
  if (op === 'answered' || op === 'unanswered') return { question, answered: op === 'answered' };
  return { question, [op]: value ?? '' } as LeafConditionDefinition;
}

function LeafEditor({ leaf, earlier, path, onChange, onRemove }: { leaf: LeafConditionDefinition; earlier: Question[]; path: string; onChange: (leaf: LeafConditionDefinition) => void; onRemove: () => void }) {
  const { t } = useTranslation(NS);
  const question = earlier.find((q) => q.key === leaf.question);
  const op = opOf(leaf);
  const value = op === 'answered' || op === 'unanswered' ? undefined : (leaf[op] as string | number | boolean | undefined);
  const errors = useFieldErrors();
  const error = errors.get(path) ?? errors.get(`${path}.question`) ?? errors.get(`${path}.${op}`);
  const set = (next: Partial<{ question: string; op: Op; value: string | number | boolean }>) => onChange(leafWith(next.question ?? leaf.question, next.op ?? op, 'value' in next ? next.value : value));
  let valueField = null;
  if (op !== 'answered' && op !== 'unanswered') {
    if (question && CHOICE.has(question.type)) {
      valueField = <Select label={t('builder.value')} data={(question.options ?? []).map((o) => ({ value: o.key, label: o.name || o.key }))} value={typeof value === 'string' ? value : null} onChange={(v) => v !== null && set({ value: v })} />;
    } else if (question?.type === 'BOOLEAN') {
      valueField = <Select label={t('builder.value')} data={[{ value: 'true', label: t('builder.yes') }, { value: 'false', label: t('builder.no') }]} value={value === undefined ? null : String(value)} onChange={(v) => v !== null && set({ value: v === 'true' })} />;
    } else if (question && NUMERIC.has(question.type)) {
      valueField = <NumberInput label={t('builder.value')} value={typeof value === 'number' ? value : ''} onChange={(v) => set({ value: typeof v === 'number' ? v : Number(v) })} />;
    } else {
      valueField = <TextInput label={t('builder.value')} value={value === undefined ? '' : String(value)} maxLength={10_000} onChange={(event) => set({ value: event.currentTarget.value })} />;
    }
  }
  return (
    <Group align="flex-end" wrap="wrap" gap="xs">
      <Select label={t('builder.leafQuestion')} data={earlier.map((q) => ({ value: q.key, label: q.name || q.key }))} value={leaf.question || null} onChange={(key) => key && set({ question: key, op: opsFor(earlier.find((q) => q.key === key)?.type).includes(op) ? op : 'answered' })} error={error} w={200} />
      <Select label={t('builder.operator')} data={opsFor(question?.type).map((o) => ({ value: o, label: t(`builder.ops.${o}`) }))} value={op} onChange={(o) => o && set({ op: o as Op })} w={150} />
      {valueField}
      <Button variant="default" c="red.9" onClick={onRemove}>
        {t('builder.removeLeaf')}
      </Button>
    </Group>
  );
}

/** `labels`: the heading and the remove button when the condition is not a visibleIf (a treatment flow's `when`). */
export function ConditionEditor({ value, earlier, path, onChange, labels }: {
  value: ConditionDefinition | undefined; earlier: Question[]; path: string; onChange: (value: ConditionDefinition | undefined) => void; labels?: { title: string; remove: string };
}) {
  const { t } = useTranslation(NS);
  if (earlier.length === 0 && !value) return null;
  if (!value) {
    return (
      <Button variant="light" size="xs" onClick={() => onChange({ all: [{ question: earlier[0].key, answered: true }] })}>
        {t('builder.addCondition')}
      </Button>
    );
  }
  const mode: 'all' | 'any' = 'any' in value ? 'any' : 'all';
  const items: ConditionDefinition[] = 'all' in value ? value.all : 'any' in value ? value.any : [value];
  const nested = items.some((item) => 'all' in item || 'any' in item);
  const listPath = 'all' in value || 'any' in value ? `${path}.${mode}` : null;
  const write = (next: ConditionDefinition[], nextMode = mode) => onChange(next.length === 0 ? undefined : nextMode === 'all' ? { all: next } : { any: next });
  return (
    <Paper withBorder p="sm" radius="sm">
      <Stack gap="xs">
        <Group gap="xs" align="flex-end" wrap="wrap">
          <Text fw={500}>{labels?.title ?? t('builder.condition')}</Text>
          <Select aria-label={t('builder.combinator')} data={[{ value: 'all', label: t('builder.all') }, { value: 'any', label: t('builder.any') }]} value={mode} onChange={(m) => m && write(items, m as 'all' | 'any')} w={200} />
        </Group>
        {nested ? (
          <Text size="sm">{JSON.stringify(value)}</Text>
        ) : (
          (items as LeafConditionDefinition[]).map((leaf, i) => (
            <LeafEditor
              key={i}
              leaf={leaf}
              earlier={earlier}
              path={listPath ? `${listPath}[${i}]` : path}
              onChange={(next) => write(items.map((item, j) => (j === i ? next : item)))}
              onRemove={() => write(items.filter((_, j) => j !== i))}
            />
          ))
        )}
        <Group gap="xs">
          {!nested && earlier.length > 0 && (
            <Button variant="light" size="xs" onClick={() => write([...items, { question: earlier[0].key, answered: true }])}>
              {t('builder.addLeaf')}
            </Button>
          )}
          <Button variant="default" size="xs" onClick={() => onChange(undefined)}>
            {labels?.remove ?? t('builder.removeCondition')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
