/** An invite's status as a badge, and the colour of each status (the counts above the list use the same). */
import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { InviteStatus } from './invites-api';
import { NS } from './strings';

export const STATUS_COLOR: Record<InviteStatus, string> = {
  created: 'gray.9', queued: 'blue.9', sent: 'blue.9', delivered: 'indigo.9', opened: 'cyan.9', started: 'cyan.9', responded: 'teal.9', failed: 'red.9', revoked: 'dark.6', expired: 'dark.4',
};

export function StatusBadge({ status }: { status: InviteStatus }) {
  const { t } = useTranslation(NS);
  return (
    <Badge color={STATUS_COLOR[status]} variant="filled">
      {t(`statuses.${status}`)}
    </Badge>
  );
}
