import { NativeSelect } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { chooseLanguage, currentLanguage, LANGUAGE_NAMES, LANGUAGES, type Language } from '../i18n';

/** The language of the panel (a native select: light, and every screen reader knows it). */
export function LanguagePicker() {
  const { t } = useTranslation();
  return (
    <NativeSelect
      label={t('common.language')}
      value={currentLanguage()}
      data={LANGUAGES.map((language) => ({ value: language, label: LANGUAGE_NAMES[language] }))}
      onChange={(event) => void chooseLanguage(event.currentTarget.value as Language)}
    />
  );
}
