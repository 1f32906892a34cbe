/** The Settings area: company, channels, holidays and the suppression list, one tab each. */
import { Stack, Tabs, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ChannelSettings } from './channel-settings';
import { GeneralSettings } from './general-settings';
import { HolidaysPanel } from './holidays-panel';
import { NS } from './strings';
import { SuppressionsPanel } from './suppressions-panel';

const TABS = [
  { value: 'general', Panel: GeneralSettings },
  { value: 'channels', Panel: ChannelSettings },
  { value: 'holidays', Panel: HolidaysPanel },
  { value: 'suppressions', Panel: SuppressionsPanel },
] as const;

export function SettingsPage() {
  const { t } = useTranslation(NS);
  return (
    <Stack>
      <Title order={1}>{t('title')}</Title>
      {/* Panels mount when first shown: each reads only its own data. */}
      <Tabs defaultValue="general" keepMounted={false}>
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
