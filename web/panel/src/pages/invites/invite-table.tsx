/**
 * A form's invites as a native table over the API's cursor: TanStack Virtual renders only the
 * rows in view (spacer rows keep one table, aria-rowcount and aria-rowindex tell a screen reader
 * where it is in the whole list), and the next page is read when the view nears the last loaded
 * row, so 100,000 invites cost what is on screen.
 */
import { Box, Button, Checkbox, CopyButton, Group, Loader, Table, Text } from '@mantine/core';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
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
  const scroller = useRef<HTMLDivElement>(null);
  const virtual = useVirtualizer({ count: invites.length, getScrollElement: () => scroller.current, estimateSize: () => ROW_HEIGHT, overscan: 10 });
  const items = virtual.getVirtualItems();
  const lastIndex = items.at(-1)?.index ?? 0;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = pages;
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && lastIndex >= invites.length - READ_AHEAD) void fetchNextPage();
  }, [lastIndex, invites.length, hasNextPage, isFetchingNextPage, fetchNextPage]);

  const before = items[0]?.start ?? 0;
  const after = virtual.getTotalSize() - (items.at(-1)?.end ?? 0);
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
            {before > 0 && (
              <tr aria-hidden>
                <td colSpan={COLUMNS} style={{ height: before, padding: 0 }} />
              </tr>
            )}
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
            {after > 0 && (
              <tr aria-hidden>
                <td colSpan={COLUMNS} style={{ height: after, padding: 0 }} />
              </tr>
            )}
          </Table.Tbody>
        </Table>
      </Box>
      {isFetchingNextPage && (
        <Group gap="xs" mt="xs" role="status">
          <Loader size="xs" aria-hidden />
          <Text size="sm">{t('loadingMore')}</Text>
        </Group>
      )}
    </Box>
  );
}
