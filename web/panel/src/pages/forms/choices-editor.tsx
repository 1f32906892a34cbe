/** Options, matrix rows or matrix columns of a question: key and text each, added and removed; an option may be kept last when its section shuffles. */
import { ActionIcon, Button, Checkbox, Fieldset, Group, Stack, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { freeKey } from './definition';
import { useFieldErrors } from './field-errors';
import { NS } from './strings';

type Choice = { id?: string; key: string; name: string; anchored?: boolean };

export function ChoicesEditor({ legend, choices, path, anchorable, onChange }: { legend: string; choices: Choice[]; path: string; anchorable: boolean; onChange: (choices: Choice[]) => void }) {
  const { t } = useTranslation(NS);
  const errors = useFieldErrors();
  const set = (i: number, patch: Partial<Choice>) => onChange(choices.map((c, j) => (j === i ? { ...c, ...patch } : c)));
  return (
    <Fieldset legend={legend} p="xs">
      <Stack gap={6}>
        {errors.get(path) && <div role="alert" style={{ color: 'var(--mantine-color-red-9)' }}>{errors.get(path)}</div>}
        {choices.map((choice, i) => (
          <Group key={choice.id ?? `${i}`} gap="xs" align="flex-start" wrap="nowrap">
            <TextInput aria-label={`${legend} ${i + 1}: ${t('builder.choiceName')}`} placeholder={t('builder.choiceName')} value={choice.name} maxLength={500} onChange={(e) => set(i, { name: e.currentTarget.value })} error={errors.get(`${path}[${i}].name`)} style={{ flex: 2 }} />
            <TextInput aria-label={`${legend} ${i + 1}: ${t('builder.choiceKey')}`} placeholder={t('builder.choiceKey')} value={choice.key} maxLength={64} onChange={(e) => set(i, { key: e.currentTarget.value })} error={errors.get(`${path}[${i}].key`)} style={{ flex: 1 }} />
            {anchorable && <Checkbox mt={8} label={t('builder.anchored')} aria-label={`${legend} ${i + 1}: ${t('builder.anchored')}`} checked={choice.anchored === true} onChange={(e) => set(i, { anchored: e.currentTarget.checked || undefined })} />}
            <ActionIcon variant="default" c="red.9" size="lg" aria-label={t('builder.removeChoice', { name: choice.name || choice.key })} onClick={() => onChange(choices.filter((_, j) => j !== i))}>
              ×
            </ActionIcon>
          </Group>
        ))}
        <Button variant="light" size="xs" onClick={() => onChange([...choices, { key: freeKey(legend.slice(0, 1).toUpperCase(), choices.map((c) => c.key)), name: '' }])} style={{ alignSelf: 'flex-start' }}>
          {t('builder.addChoice')}
        </Button>
      </Stack>
    </Fieldset>
  );
}
