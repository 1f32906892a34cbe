/** An area of tabs: its title and one tab per panel, from the area's namespace (`title`, `tabs.<value>`). */
import { Stack, Tabs, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export interface AreaTab {
  value: string;
  Panel: () => React.JSX.Element;
}

export function TabbedArea({ ns, tabs }: { ns: string; tabs: readonly AreaTab[] }) {
  const { t } = useTranslation(ns);
  return (
    <Stack>
      <Title order={1}>{t('title')}</Title>
      {/* Panels mount when first shown: each reads only its own data. */}
      <Tabs defaultValue={tabs[0].value} keepMounted={false}>
        <Tabs.List>
          {tabs.map(({ value }) => (
            <Tabs.Tab key={value} value={value}>
              {t(`tabs.${value}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {tabs.map(({ value, Panel }) => (
          <Tabs.Panel key={value} value={value} pt="md">
            <Panel />
          </Tabs.Panel>
        ))}
      </Tabs>
    </Stack>
  );
}
