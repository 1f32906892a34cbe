/**
 * The company's look on its respondent pages and invitations (Company tab): a brand colour
 * (PATCH /settings, refused when white text on it, or it as text on white, would not reach WCAG
 * AA) and a logo uploaded to Quorum (PUT/DELETE /settings/logo), which serves it itself.
 */
import { Box, Button, FileInput, Group, Image, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { ApiProblem, applyFieldErrors, unwrap, type FieldProblem } from '../../api/errors';
import { fieldText, problemText } from '../../ui/problem-text';
import { FormOutcome } from '../../ui/area-state';
import { companySettingsQuery, type CompanySettingsView } from './settings-api';
import { NS } from './strings';

const HEX = /^#[0-9a-fA-F]{6}$/;

/** A file's bytes as base64 (what PUT /settings/logo takes). */
async function base64Of(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

export function BrandSettings({ view }: { view: CompanySettingsView }) {
  const { t } = useTranslation([NS, 'translation']);
  const client = useQueryClient();
  const form = useForm<{ brandColor: string }>({ defaultValues: { brandColor: view.settings.brandColor ?? '' } });
  const { errors, isSubmitting } = form.formState;
  const [saved, setSaved] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [logoError, setLogoError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const describe = (field: FieldProblem) => (field.path === 'brandColor' && field.code === 'invalid_value' ? t('brand.lowContrast') : fieldText(t, field));

  const settle = (data: CompanySettingsView) => {
    client.setQueryData(companySettingsQuery.queryKey, data);
    form.reset({ brandColor: data.settings.brandColor ?? '' });
  };
  const start = () => {
    setSaved(null);
    setProblem(null);
    setLogoError(null);
  };
  const failed = (error: unknown, place: (problem: ApiProblem) => FieldProblem[]) => {
    const rest = error instanceof ApiProblem ? place(error) : [];
    if (!(error instanceof ApiProblem && error.code === 'VALIDATION_ERROR' && rest.length === 0)) setProblem(problemText(t, error));
  };

  const submit = form.handleSubmit(async ({ brandColor }) => {
    start();
    try {
      const value = brandColor.trim();
      settle((await unwrap(api.PATCH('/settings', { body: { brandColor: value === '' ? null : value } }))).data);
      setSaved(t('saved'));
    } catch (error) {
      failed(error, (p) => applyFieldErrors(p, form.setError, ['brandColor'], describe));
    }
  });

  const upload = async (file: File | null) => {
    if (!file) return;
    start();
    setBusy(true);
    try {
      settle((await unwrap(api.PUT('/settings/logo', { body: { image: await base64Of(file) } }))).data);
      setSaved(t('brand.logoSaved'));
    } catch (error) {
      // every refusal of the file (its type, its size, by the service or the route's bound) reads the same: what is accepted
      failed(error, (p) => {
        if (p.fields.length > 0) setLogoError(t('brand.logoRefused'));
        return [];
      });
    } finally {
      setBusy(false);
    }
  };

  const remove = async () => {
    start();
    setBusy(true);
    try {
      settle((await unwrap(api.DELETE('/settings/logo'))).data);
      setSaved(t('brand.logoRemoved'));
    } catch (error) {
      failed(error, (p) => p.fields);
    } finally {
      setBusy(false);
    }
  };

  const color = form.watch('brandColor').trim();
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="brand-heading">
      <Stack>
        <Title order={2} size="h4" id="brand-heading">
          {t('brand.heading')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('brand.intro')}
        </Text>
        <form onSubmit={(event) => void submit(event)} noValidate>
          <Group align="flex-end">
            <TextInput
              label={t('brand.color')}
              description={t('brand.colorHelp')}
              placeholder="#1d4ed8"
              maxLength={7}
              autoComplete="off"
              error={errors.brandColor?.message}
              leftSection={<Box aria-hidden w={18} h={18} style={{ borderRadius: 4, border: '1px solid #868e96', background: HEX.test(color) ? color : 'transparent' }} />}
              {...form.register('brandColor')}
            />
            <Button type="submit" loading={isSubmitting}>
              {t('brand.saveColor')}
            </Button>
          </Group>
        </form>
        <Group align="flex-end">
          {view.settings.logoUrl ? <Image src={view.settings.logoUrl} alt={t('brand.logoAlt')} h={48} w="auto" fit="contain" /> : <Text size="sm">{t('brand.noLogo')}</Text>}
          <FileInput
            label={t('brand.logo')}
            description={t('brand.logoRules')}
            accept="image/png,image/jpeg,image/webp"
            value={null}
            onChange={(file) => void upload(file)}
            disabled={busy}
            error={logoError}
          />
          {view.settings.logoUrl && (
            <Button variant="default" onClick={() => void remove()} disabled={busy}>
              {t('brand.removeLogo')}
            </Button>
          )}
        </Group>
        <FormOutcome saved={saved} problem={problem} />
      </Stack>
    </Paper>
  );
}
