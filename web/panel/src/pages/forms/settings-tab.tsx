/** The form's settings: name, description, link and privacy flags, closing date, the public link's hidden fields, language, the invitation e-mail. */
import { Checkbox, Select, Stack, TagsInput, Text, TextInput, Textarea } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { missingTranslations, offeredLanguages } from '../../../../../src/features/forms/definition/translate';
import type { FormLanguage } from '../../../../../src/features/forms/definition/vocabulary';
import type { Draft } from './definition';
import { useFieldErrors } from './field-errors';
import { NS } from './strings';

const FLAGS = ['isPublic', 'requiresInvite', 'anonymous', 'isClosed'] as const;
const LANGUAGES = [{ value: 'en', label: 'English' }, { value: 'pt-BR', label: 'Português (Brasil)' }, { value: 'es', label: 'Español' }];
/** An instant as a datetime-local value in the browser's time zone ("2026-03-01T09:30"), and back. */
function toLocalInput(iso: string | undefined): string {
  if (!iso) return '';
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return '';
  return new Date(at.getTime() - at.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}
function fromLocalInput(value: string): string | undefined {
  const at = new Date(value);
  return value === '' || Number.isNaN(at.getTime()) ? undefined : at.toISOString();
}

const languageName = (language: string) => LANGUAGES.find((l) => l.value === language)?.label ?? language;

/** Which languages the respondents may choose (the form's own and each complete translation), and what an incomplete one lacks. */
function Languages({ draft }: { draft: Draft }) {
  const { t } = useTranslation(NS);
  const translations = draft.translations ?? {};
  if (Object.keys(translations).length === 0) return null;
  const offered = offeredLanguages(draft.settings.language, draft, translations);
  const incomplete = (Object.keys(translations) as FormLanguage[])
    .filter((language) => language !== draft.settings.language)
    .map((language) => ({ language, missing: missingTranslations(draft, translations[language]) }))
    .filter(({ missing }) => missing.length > 0);
  return (
    <Stack gap={4} data-testid="form-languages">
      {offered.length > 0 && <Text size="sm">{t('settings.languagesOffered', { list: offered.map(languageName).join(', ') })}</Text>}
      {incomplete.map(({ language, missing }) => (
        <Text size="sm" c="dimmed" key={language}>{t('settings.translationIncomplete', { language: languageName(language), count: missing.length, first: missing[0] })}</Text>
      ))}
    </Stack>
  );
}

/** The variables the send fills (contract decisions); dims.<key> of the form's invite dims too. */
const VARIABLES = ['name', 'email', 'phone', 'externalId', 'url', 'formName', 'company', 'expiresAt'];

export function SettingsTab({ draft, edit }: { draft: Draft; edit: (change: (d: Draft) => Draft) => void }) {
  const { t } = useTranslation(NS);
  const errors = useFieldErrors();
  // values are read before the update is queued: React runs updaters after the event is gone
  const set = (patch: Partial<Draft>) => edit((d) => ({ ...d, ...patch }));
  const setSetting = (patch: Partial<Draft['settings']>) => edit((d) => ({ ...d, settings: { ...d.settings, ...patch } }));
  const setEmail = (part: 'subject' | 'body', value: string) =>
    edit((d) => {
      const email = { ...d.email, [part]: value || undefined };
      return { ...d, email: email.subject === undefined && email.body === undefined ? undefined : email };
    });
  const variables = [...VARIABLES, ...draft.dims.filter((dim) => dim.source === 'invite').map((dim) => `dims.${dim.key}`)].map((v) => `{{${v}}}`).join(' ');
  return (
    <Stack maw={720}>
      <TextInput label={t('settings.name')} required maxLength={200} value={draft.name} onChange={(e) => set({ name: e.currentTarget.value })} error={errors.get('name')} />
      <Textarea label={t('settings.description')} autosize minRows={2} maxLength={5000} value={draft.description ?? ''} onChange={(e) => set({ description: e.currentTarget.value || undefined })} error={errors.get('description')} />
      {FLAGS.map((flag) => (
        <Checkbox key={flag} label={t(`settings.${flag}`)} checked={draft.settings[flag]} onChange={(e) => setSetting({ [flag]: e.currentTarget.checked })} />
      ))}
      <TextInput
        type="datetime-local"
        label={t('settings.closesAt')}
        description={t('settings.closesAtHelp', { zone: Intl.DateTimeFormat().resolvedOptions().timeZone })}
        value={toLocalInput(draft.settings.closesAt)}
        onChange={(e) => setSetting({ closesAt: fromLocalInput(e.currentTarget.value) })}
        error={errors.get('settings.closesAt')}
        maw={320}
      />
      <TagsInput
        label={t('settings.hiddenFields')}
        description={t('settings.hiddenFieldsHelp')}
        value={draft.hiddenFields ?? []}
        onChange={(names) => set({ hiddenFields: names.length > 0 ? names : undefined })}
        error={errors.get('hiddenFields') ?? (draft.hiddenFields ?? []).map((_, i) => errors.get(`hiddenFields[${i}]`)).find(Boolean)}
        maxTags={10}
      />
      <Select
        label={t('settings.language')}
        data={[{ value: '', label: t('settings.languageAuto') }, ...LANGUAGES]}
        value={draft.settings.language ?? ''}
        allowDeselect={false}
        onChange={(value) => setSetting({ language: (value || undefined) as Draft['settings']['language'] })}
        error={errors.get('settings.language')}
      />
      <Languages draft={draft} />
      <TextInput label={t('settings.emailSubject')} maxLength={255} value={draft.email?.subject ?? ''} onChange={(e) => setEmail('subject', e.currentTarget.value)} error={errors.get('email.subject')} description={t('settings.emailHelp', { list: variables, interpolation: { escapeValue: false } })} />
      <Textarea label={t('settings.emailBody')} autosize minRows={4} maxLength={10_000} value={draft.email?.body ?? ''} onChange={(e) => setEmail('body', e.currentTarget.value)} error={errors.get('email.body') ?? errors.get('email')} />
    </Stack>
  );
}
