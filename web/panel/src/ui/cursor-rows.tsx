/**
 * A long table over an API cursor: TanStack Virtual draws only the rows in view (spacer rows keep
 * one native table, so aria-rowcount and aria-rowindex still tell a screen reader where it is), and
 * the next page is read once the view nears the last loaded row.
 */
import { Group, Loader, Text } from '@mantine/core';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef } from 'react';

export interface CursorPages {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
}

export function useCursorRows(input: { count: number; rowHeight: number; overscan: number; readAhead: number; pages: CursorPages }) {
  const { count, rowHeight, overscan, readAhead, pages } = input;
  const scroller = useRef<HTMLDivElement>(null);
  const virtual = useVirtualizer({ count, getScrollElement: () => scroller.current, estimateSize: () => rowHeight, overscan });
  const items = virtual.getVirtualItems();
  const lastIndex = items.at(-1)?.index ?? 0;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = pages;
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && lastIndex >= count - readAhead) void fetchNextPage();
  }, [lastIndex, count, readAhead, hasNextPage, isFetchingNextPage, fetchNextPage]);
  return { scroller, items, before: items[0]?.start ?? 0, after: virtual.getTotalSize() - (items.at(-1)?.end ?? 0) };
}

/** The height of the rows not drawn above or below the view, as one hidden row. */
export function SpacerRow({ height, span }: { height: number; span: number }) {
  if (height <= 0) return null;
  return (
    <tr aria-hidden>
      <td colSpan={span} style={{ height, padding: 0 }} />
    </tr>
  );
}

/** Said while the next page is being read. */
export function LoadingMore({ shown, text }: { shown: boolean; text: string }) {
  if (!shown) return null;
  return (
    <Group gap="xs" mt="xs" role="status">
      <Loader size="xs" aria-hidden />
      <Text size="sm">{text}</Text>
    </Group>
  );
}
