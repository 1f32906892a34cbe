/** Mantine's Modal whose close button has a name in the person's language (axe: button-name). */
import { Modal, type ModalProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { NS } from './strings';

export function Dialog(props: ModalProps) {
  const { t } = useTranslation(NS);
  return <Modal closeButtonProps={{ 'aria-label': t('close') }} {...props} />;
}
