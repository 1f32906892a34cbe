/** The "Load more" button under a cursor-paged list: shown while the server says more rows exist. */
import { Button, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { NAMESPACE } from './strings';

/** What it reads of a TanStack infinite query. */
interface Paged {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => Promise<unknown>;
}

export function LoadMore({ query }: { query: Paged }) {
  const { t } = useTranslation(NAMESPACE);
  if (!query.hasNextPage) return null;
  return (
    <Group justify="center">
      <Button variant="default" loading={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()}>
        {t('loadMore')}
      </Button>
    </Group>
  );
}
