/** A form's invites as one native table over the API's cursor (ui/cursor-rows): 100,000 invites cost what is on screen. */
import { Box, Button, Checkbox, CopyButton, Group, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { LoadingMore, SpacerRow, useCursorRows } from '../../ui/cursor-rows';
import { formatWhen } from '../integrations/format';
import type { Invite } from './invites-api';
import { StatusBadge } from './status-badge';
import { NS } from './strings';

/** Every row one line high (long names are cut with an ellipsis), so the virtualiser's sizes are exact. */
const ROW_HEIGHT = 49;
const COLUMNS = 5;
/** Rows from the end of what is loaded at which the next page is read. */
const READ_AHEAD = 30;
const nowrap = { whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis', maxWidth: 320 } as const;

interface Props {
  formName: string;
  invites: Invite[];
  total: number;
  pages: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => unknown };
  selected: Set<string>;
  allLoaded: boolean;
  onToggle: (id: string) => void;
  onSelectAll: () => void;
  onTimeline: (id: string) => void;
}

export function InviteTable({ formName, invites, total, pages, selected, allLoaded, onToggle, onSelectAll, onTimeline }: Props) {
  const { t, i18n } = useTranslation(NS);
  const { scroller, items, before, after } = useCursorRows({ count: invites.length, rowHeight: ROW_HEIGHT, overscan: 10, readAhead: READ_AHEAD, pages });
  const { hasNextPage, isFetchingNextPage } = pages;
  const caption = t('table.caption', { form: formName });
  const number = (n: number) => n.toLocaleString(i18n.language);
  return (
    <Box>
      <Text size="sm" c="dimmed" mb="xs" data-testid="invites-loaded">
        {t(hasNextPage ? 'shown' : 'allLoaded', { shown: number(invites.length), total: number(total) })}
      </Text>
      <Box ref={scroller} role="region" aria-label={caption} tabIndex={0} pos="relative" h="min(60vh, 560px)" style={{ overflow: 'auto' }}>
        <Table striped highlightOnHover stickyHeader miw={720} aria-label={caption} aria-rowcount={total + 1}>
          <Table.Thead>
            <Table.Tr aria-rowindex={1}>
              <Table.Th scope="col">
                <Checkbox aria-label={t('table.selectAll')} checked={allLoaded} indeterminate={selected.size > 0 && !allLoaded} onChange={onSelectAll} />
              </Table.Th>
              <Table.Th scope="col">{t('table.contact')}</Table.Th>
              <Table.Th scope="col">{t('table.status')}</Table.Th>
              <Table.Th scope="col">{t('table.created')}</Table.Th>
              <Table.Th scope="col">{t('table.actions')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            <SpacerRow height={before} span={COLUMNS} />
            {items.map((item) => {
              const invite = invites[item.index];
              const contact = invite.email ?? invite.phone ?? '';
              const label = invite.name ? `${invite.name} (${contact})` : contact;
              return (
                <Table.Tr key={invite.id} aria-rowindex={item.index + 2} h={ROW_HEIGHT} data-testid="invite-row">
                  <Table.Td>
                    <Checkbox aria-label={t('table.select', { name: label })} checked={selected.has(invite.id)} onChange={() => onToggle(invite.id)} />
                  </Table.Td>
                  <Table.Td style={nowrap}>
                    <Text size="sm" span fw={500}>{invite.name ?? contact}</Text>
                    {invite.name && <Text size="xs" span c="dimmed" ml="xs">{contact}</Text>}
                  </Table.Td>
                  <Table.Td>
                    <StatusBadge status={invite.effectiveStatus} />
                  </Table.Td>
                  <Table.Td style={nowrap}>
                    <Text size="sm" span>{formatWhen(invite.createdAt)}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4} wrap="nowrap">
                      <Button size="compact-sm" variant="subtle" onClick={() => onTimeline(invite.id)} aria-label={`${t('actions.timeline')}: ${label}`}>
                        {t('actions.timeline')}
                      </Button>
                      <CopyButton value={invite.url}>
                        {({ copied, copy }) => (
                          <Button size="compact-sm" variant="subtle" onClick={copy} aria-label={`${copied ? t('actions.copied') : t('actions.copy')}: ${label}`}>
                            {copied ? t('actions.copied') : t('actions.copy')}
                          </Button>
                        )}
                      </CopyButton>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              );
            })}
            <SpacerRow height={after} span={COLUMNS} />
          </Table.Tbody>
        </Table>
      </Box>
      <LoadingMore shown={isFetchingNextPage} text={t('loadingMore')} />
    </Box>
  );
}
