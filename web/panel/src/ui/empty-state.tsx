import { Paper, Text, Title } from '@mantine/core';

/** An area with nothing in it yet: a heading and a sentence saying what will be here. */
export function EmptyState({ title, body }: { title: string; body: string }) {
  return (
    <Paper withBorder p="xl" radius="md">
      <Title order={2} size="h3">
        {title}
      </Title>
      <Text mt="sm" c="dimmed">
        {body}
      </Text>
    </Paper>
  );
}
