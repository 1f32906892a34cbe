/** One question of the builder: text, key, type, required, description and its type's settings, its condition. */
import { Checkbox, Group, NumberInput, Select, SimpleGrid, Stack, TextInput, Textarea } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ChoicesEditor } from './choices-editor';
import { ConditionEditor } from './condition-editor';
import { QUESTION_TYPES, typeTakes, withType, type QuestionType, type Question } from './definition';
import { useFieldErrors } from './field-errors';
import { NS } from './strings';

const numberOrUndefined = (value: string | number) => (value === '' || Number.isNaN(Number(value)) ? undefined : Number(value));

export function QuestionEditor({ question, path, earlier, onChange }: { question: Question; path: string; earlier: Question[]; onChange: (q: Question) => void }) {
  const { t } = useTranslation(NS);
  const errors = useFieldErrors();
  const set = (patch: Partial<Question>) => onChange({ ...question, ...patch });
  const star = question.type === 'STAR';
  return (
    <Stack gap="xs">
      <Textarea label={t('builder.questionName')} required autosize minRows={1} maxLength={2000} value={question.name} onChange={(e) => set({ name: e.currentTarget.value })} error={errors.get(`${path}.name`)} />
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="xs">
        <Select label={t('builder.type')} data={QUESTION_TYPES.map((type) => ({ value: type, label: t(`types.${type}`) }))} value={question.type} allowDeselect={false} onChange={(type) => type && onChange(withType(question, type as QuestionType))} error={errors.get(`${path}.type`)} />
        <TextInput label={t('builder.key')} description={t('builder.keyHelp')} required maxLength={64} value={question.key} onChange={(e) => set({ key: e.currentTarget.value })} error={errors.get(`${path}.key`)} />
        <Checkbox label={t('builder.mandatory')} checked={question.mandatory} onChange={(e) => set({ mandatory: e.currentTarget.checked })} mt="xl" />
      </SimpleGrid>
      <Textarea label={t('builder.description')} autosize minRows={1} maxLength={5000} value={question.description ?? ''} onChange={(e) => set({ description: e.currentTarget.value || undefined })} error={errors.get(`${path}.description`)} />
      {(['options', 'rows', 'columns'] as const).filter((list) => typeTakes(question.type, list)).map((list) => (
        <ChoicesEditor key={list} legend={t(`builder.${list}`)} choices={question[list] ?? []} path={`${path}.${list}`} anchorable={list === 'options'} onChange={(choices) => set({ [list]: choices })} />
      ))}
      {(typeTakes(question.type, 'min') || typeTakes(question.type, 'max')) && (
        <Group gap="xs" wrap="wrap">
          {typeTakes(question.type, 'min') && <NumberInput label={t('builder.min')} value={question.min ?? ''} onChange={(v) => set({ min: numberOrUndefined(v) })} error={errors.get(`${path}.min`)} w={130} />}
          <NumberInput label={t(star ? 'builder.starMax' : 'builder.max')} min={star ? 1 : undefined} max={star ? 10 : undefined} value={question.max ?? ''} onChange={(v) => set({ max: numberOrUndefined(v) })} error={errors.get(`${path}.max`)} w={130} />
          {typeTakes(question.type, 'step') && <NumberInput label={t('builder.step')} value={question.step ?? ''} onChange={(v) => set({ step: numberOrUndefined(v) })} error={errors.get(`${path}.step`)} w={130} />}
        </Group>
      )}
      <ConditionEditor value={question.visibleIf} earlier={earlier} path={`${path}.visibleIf`} onChange={(visibleIf) => set({ visibleIf })} />
    </Stack>
  );
}
