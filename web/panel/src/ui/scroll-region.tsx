/** A wide table on a phone: a labelled region that scrolls sideways and takes keyboard focus (axe: scrollable-region-focusable). */
import { Box } from '@mantine/core';
import type { ReactNode } from 'react';

export function ScrollRegion({ label, minWidth, children }: { label: string; minWidth: number; children: ReactNode }) {
  return (
    // Positioned, so absolutely placed descendants (visually hidden labels) scroll with it instead of widening the page.
    <Box role="region" aria-label={label} tabIndex={0} pos="relative" style={{ overflowX: 'auto' }}>
      <Box miw={minWidth}>{children}</Box>
    </Box>
  );
}
