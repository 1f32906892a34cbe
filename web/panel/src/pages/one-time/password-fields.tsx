import { PasswordInput } from '../../ui/password-input';
import type { UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';

/** The contract's password rule (10..200 characters); the server checks it again. */
export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 200;

interface WithPassword {
  password: string;
  confirm: string;
}

/** A new password typed twice (set-password and accept-invitation pages). */
export function PasswordFields<T extends WithPassword>({ form }: { form: UseFormReturn<T> }) {
  const { t } = useTranslation();
  // the two names exist on every T this takes
  const typed = form as unknown as UseFormReturn<WithPassword>;
  const { errors } = typed.formState;
  return (
    <>
      <PasswordInput
        label={t('oneTime.password')}
        description={t('oneTime.passwordHelp', { min: PASSWORD_MIN })}
        autoComplete="new-password"
        required
        error={errors.password?.message}
        {...typed.register('password', {
          required: t('field.required'),
          minLength: { value: PASSWORD_MIN, message: t('field.too_short_chars', { min: PASSWORD_MIN }) },
          maxLength: { value: PASSWORD_MAX, message: t('field.too_long_chars', { max: PASSWORD_MAX }) },
        })}
      />
      <PasswordInput
        label={t('oneTime.confirm')}
        autoComplete="new-password"
        required
        error={errors.confirm?.message}
        {...typed.register('confirm', {
          required: t('field.required'),
          validate: (value, values) => value === values.password || t('oneTime.mismatch'),
        })}
      />
    </>
  );
}
