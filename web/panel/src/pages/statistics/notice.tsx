/** A sentence the reader must see (anonymity, partial figures): bordered, in the page's own text colour so it keeps its contrast. */
import { Paper, Text } from '@mantine/core';
import type { ReactNode } from 'react';

export function Notice({ role, children }: { role: 'status' | 'note'; children: ReactNode }) {
  return (
    <Paper withBorder p="sm" role={role} style={{ borderLeft: '4px solid var(--mantine-color-yellow-8)' }}>
      <Text>{children}</Text>
    </Paper>
  );
}
