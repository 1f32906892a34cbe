/** Which columns the table shows: a checklist in a popover, kept per form for the person's tab. */
import { Button, Checkbox, Popover, ScrollArea, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { RESPONSES_NS } from './strings';

export function ColumnChooser({ choices, chosen, onChange }: { choices: { value: string; label: string }[]; chosen: string[]; onChange: (chosen: string[]) => void }) {
  const { t } = useTranslation(RESPONSES_NS);
  return (
    <Popover position="bottom-start" shadow="md" trapFocus withinPortal>
      <Popover.Target>
        <Button variant="default">{t('columns.button')}</Button>
      </Popover.Target>
      <Popover.Dropdown maw="min(92vw, 360px)">
        <Checkbox.Group
          label={<Text fw={600}>{t('columns.heading')}</Text>}
          // keep the form's column order whatever order they were ticked in
          value={chosen}
          onChange={(value) => onChange(choices.map((c) => c.value).filter((v) => value.includes(v)))}
        >
          <ScrollArea.Autosize mah={320} mt="xs">
            <Stack gap={6}>
              {choices.map((choice) => (
                <Checkbox key={choice.value} value={choice.value} label={choice.label} />
              ))}
            </Stack>
          </ScrollArea.Autosize>
        </Checkbox.Group>
      </Popover.Dropdown>
    </Popover>
  );
}
