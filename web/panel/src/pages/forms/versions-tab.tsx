/** Who changed what, when: the form's versions, newest first. */
import { Badge, Group, Paper, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../ui/empty-state';
import { formatWhen } from '../integrations/format';
import { Loading, LoadError } from '../../ui/area-state';
import { versionsQuery } from './forms-api';
import { NS } from './strings';

export function VersionsTab({ formId }: { formId: string }) {
  const { t } = useTranslation(NS);
  const versions = useQuery(versionsQuery(formId));
  if (versions.isPending) return <Loading />;
  if (versions.isError) return <LoadError error={versions.error} retry={() => void versions.refetch()} />;
  if (versions.data.length === 0) return <EmptyState title={t('versions.emptyTitle')} body={t('versions.emptyBody')} />;
  return (
    <Stack component="ol" style={{ listStyle: 'none', padding: 0 }}>
      {versions.data.map((version) => (
        <Paper key={version.version} withBorder p="sm" component="li">
          <Text fw={500}>
            {t('versions.version', { n: version.version })} · {formatWhen(version.createdAt)} · {t('versions.by', { who: version.actorEmail ?? t('versions.cli') })}
          </Text>
          {(['added', 'removed', 'changed'] as const).filter((kind) => version.changes[kind].length > 0).map((kind) => (
            <Group key={kind} gap={4} mt={4}>
              <Text size="sm">{t(`versions.${kind}`)}:</Text>
              {version.changes[kind].map((item) => (
                <Badge key={item} variant="light" color={kind === 'removed' ? 'red' : kind === 'added' ? 'green' : 'blue'} c="dark.9" tt="none">
                  {item}
                </Badge>
              ))}
            </Group>
          ))}
        </Paper>
      ))}
    </Stack>
  );
}
