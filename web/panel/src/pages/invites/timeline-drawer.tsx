/** One invite's timeline, oldest first: created, each queued send, then its events (failed with the reason). */
import { Button, CopyButton, Drawer, Group, Stack, Text, TextInput, Timeline } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatWhen } from '../integrations/format';
import { timelineQuery } from './invites-api';
import { Loading, LoadError } from '../../ui/area-state';
import { StatusBadge } from './status-badge';
import { NS } from './strings';

export function TimelineDrawer({ inviteId, onClose, onRevoke }: { inviteId: string; onClose: () => void; onRevoke: (id: string) => void }) {
  const { t } = useTranslation(NS);
  const timeline = useQuery(timelineQuery(inviteId));
  const final = timeline.data && ['responded', 'revoked'].includes(timeline.data.invite.status);
  return (
    <Drawer opened onClose={onClose} position="right" title={t('timeline.title')} closeButtonProps={{ 'aria-label': t('close') }}>
      {timeline.isPending ? (
        <Loading />
      ) : timeline.isError ? (
        <LoadError error={timeline.error} retry={() => void timeline.refetch()} />
      ) : (
        <Stack>
          <Group justify="space-between">
            <Text fw={600}>{timeline.data.invite.name ?? timeline.data.invite.email ?? timeline.data.invite.phone}</Text>
            <StatusBadge status={timeline.data.invite.effectiveStatus} />
          </Group>
          <Group align="flex-end" wrap="nowrap">
            <TextInput label={t('timeline.link')} value={timeline.data.invite.url} readOnly style={{ flex: 1 }} />
            <CopyButton value={timeline.data.invite.url}>
              {({ copied, copy }) => (
                <Button variant="default" onClick={copy}>
                  {copied ? t('actions.copied') : t('actions.copy')}
                </Button>
              )}
            </CopyButton>
          </Group>
          <Timeline active={timeline.data.steps.length - 1} bulletSize={14} lineWidth={2} aria-label={t('timeline.steps')} data-testid="timeline">
            {timeline.data.steps.map((step, index) => (
              <Timeline.Item key={index} title={t(`timeline.stages.${step.stage}`)} color={step.stage === 'failed' ? 'red.9' : undefined}>
                <Text size="sm">
                  {formatWhen(step.at)}
                  {step.channel ? ` · ${t(`timeline.channel.${step.channel}`)}` : ''}
                  {step.dueAt ? ` · ${t('timeline.due', { when: formatWhen(step.dueAt) })}` : ''}
                </Text>
                {step.failReason && (
                  <Text size="sm" c="red.9">
                    {t(`timeline.reasons.${step.failReason}`)}
                  </Text>
                )}
              </Timeline.Item>
            ))}
          </Timeline>
          {!final && (
            <Button color="red.9" variant="light" onClick={() => onRevoke(inviteId)} w="fit-content">
              {t('actions.revoke')}
            </Button>
          )}
        </Stack>
      )}
    </Drawer>
  );
}
