import { PasswordInput as MantinePasswordInput, type PasswordInputProps } from '@mantine/core';
import { forwardRef } from 'react';
import { useTranslation } from 'react-i18next';

/** Mantine's password field with its show/hide button named in the person's language. */
export const PasswordInput = forwardRef<HTMLInputElement, PasswordInputProps>(function PasswordInput(props, ref) {
  const { t } = useTranslation();
  return <MantinePasswordInput ref={ref} visibilityToggleButtonProps={{ 'aria-label': t('common.showPassword') }} {...props} />;
});
