/** A notification with a named close button (Mantine's has no accessible name of its own). */
import { notifications, type NotificationData } from '@mantine/notifications';
import i18next from '../i18n';

export function notify(data: NotificationData): string {
  return notifications.show({ ...data, closeButtonProps: { 'aria-label': i18next.t('common.close'), ...data.closeButtonProps } });
}
