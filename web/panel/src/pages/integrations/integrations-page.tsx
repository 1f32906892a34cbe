/** The Integrations area (permission integrations): API keys and webhooks, one tab each. */
import { Stack, Tabs, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { KeysSection } from './keys-section';
import { NAMESPACE } from './strings';
import { WebhooksSection } from './webhooks-section';

export function IntegrationsPage() {
  const { t } = useTranslation(NAMESPACE);
  return (
    <Stack>
      <Title order={1}>{t('title')}</Title>
      <Text>{t('intro')}</Text>
      <Tabs defaultValue="keys" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="keys">{t('tabs.keys')}</Tabs.Tab>
          <Tabs.Tab value="webhooks">{t('tabs.webhooks')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="keys" pt="md">
          <KeysSection />
        </Tabs.Panel>
        <Tabs.Panel value="webhooks" pt="md">
          <WebhooksSection />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
