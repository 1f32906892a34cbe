/** The Rosters area: enrollments (with the API's filters and status by hand), classes, class groups, and the import. */
import { Stack, Tabs, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ClassesPanel, GroupsPanel } from './class-lists';
import { EnrollmentsPanel } from './enrollments-panel';
import { ImportPanel } from './import-panel';
import { NS } from './strings';

const TABS = [
  { value: 'enrollments', Panel: EnrollmentsPanel },
  { value: 'classes', Panel: ClassesPanel },
  { value: 'groups', Panel: GroupsPanel },
  { value: 'import', Panel: ImportPanel },
] as const;

export function RostersPage() {
  const { t } = useTranslation(NS);
  return (
    <Stack>
      <Title order={1}>{t('title')}</Title>
      <Tabs defaultValue="enrollments" keepMounted={false}>
        <Tabs.List>
          {TABS.map(({ value }) => (
            <Tabs.Tab key={value} value={value}>
              {t(`tabs.${value}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {TABS.map(({ value, Panel }) => (
          <Tabs.Panel key={value} value={value} pt="md">
            <Panel />
          </Tabs.Panel>
        ))}
      </Tabs>
    </Stack>
  );
}
