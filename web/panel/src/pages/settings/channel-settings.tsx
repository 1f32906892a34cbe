/**
 * The Channels tab: the e-mail sender (a company setting, PATCH /settings) and the WhatsApp
 * channel (PUT/DELETE /settings/whatsapp). The WhatsApp token is write-only: the server says only
 * that one is set, and the field stays empty unless a new token is typed.
 */
import { Badge, Button, Group, Modal, Paper, Radio, Stack, TagsInput, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { ApiProblem, applyFieldErrors, unwrap } from '../../api/errors';
import { PasswordInput } from '../../ui/password-input';
import { fieldText, problemText } from '../../ui/problem-text';
import { FormOutcome, LoadError, Loading } from '../../ui/area-state';
import { companySettingsQuery, renamedFields, whatsappQuery, type CompanySettingsView, type WhatsappChannel } from './settings-api';
import { NS } from './strings';

export function ChannelSettings() {
  const company = useQuery(companySettingsQuery);
  const whatsapp = useQuery(whatsappQuery);
  if (company.isError) return <LoadError error={company.error} retry={() => void company.refetch()} />;
  if (whatsapp.isError) return <LoadError error={whatsapp.error} retry={() => void whatsapp.refetch()} />;
  if (company.isPending || whatsapp.isPending) return <Loading />;
  return (
    <Stack gap="lg">
      <SenderForm view={company.data} />
      <WhatsappForm channel={whatsapp.data} />
    </Stack>
  );
}

/** Turns a failed save into field errors beside their fields, or one message for the form. */
function useOutcome() {
  const { t } = useTranslation([NS, 'translation']);
  const [saved, setSaved] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  return {
    saved,
    problem,
    start: () => {
      setSaved(null);
      setProblem(null);
    },
    done: (message: string) => setSaved(message),
    /** `placeFields` places what it can and answers the field errors left over. */
    failed: (error: unknown, placeFields: (problem: ApiProblem) => unknown[]) => {
      const rest = error instanceof ApiProblem ? placeFields(error) : [];
      if (!(error instanceof ApiProblem && error.code === 'VALIDATION_ERROR' && rest.length === 0)) setProblem(problemText(t, error));
    },
  };
}

function SenderForm({ view }: { view: CompanySettingsView }) {
  const { t } = useTranslation([NS, 'translation']);
  const client = useQueryClient();
  const form = useForm<{ mailFrom: string }>({ defaultValues: { mailFrom: view.settings.mailFrom ?? '' } });
  const outcome = useOutcome();

  const submit = form.handleSubmit(async ({ mailFrom }) => {
    outcome.start();
    try {
      const { data } = await unwrap(api.PATCH('/settings', { body: { mailFrom: mailFrom.trim() === '' ? null : mailFrom.trim() } }));
      client.setQueryData(companySettingsQuery.queryKey, data);
      form.reset({ mailFrom: data.settings.mailFrom ?? '' });
      outcome.done(t('saved'));
    } catch (error) {
      outcome.failed(error, (problem) => applyFieldErrors(problem, form.setError, ['mailFrom'], (field) => fieldText(t, field)));
    }
  });

  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="email-heading">
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack>
          <Title order={2} size="h4" id="email-heading">
            {t('email.heading')}
          </Title>
          <TextInput
            label={t('email.mailFrom')}
            description={t('email.mailFromHelp', { fallback: view.defaultMailFrom })}
            maxLength={420}
            error={form.formState.errors.mailFrom?.message}
            {...form.register('mailFrom')}
          />
          <FormOutcome saved={outcome.saved} problem={outcome.problem} />
          <Group>
            <Button type="submit" loading={form.formState.isSubmitting}>
              {t('save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

type Provider = WhatsappChannel['provider'];
interface WhatsappValues {
  provider: Provider;
  token: string;
  phoneNumberId: string;
  templates: string[];
  url: string;
  text: string;
}
const WHATSAPP_FIELDS = ['provider', 'token', 'phoneNumberId', 'templates', 'url', 'text'] as const;

function whatsappValues(channel: WhatsappChannel | null): WhatsappValues {
  const settings = channel?.settings ?? {};
  return {
    provider: channel?.provider ?? 'cloud-api',
    token: '',
    phoneNumberId: settings.phoneNumberId ?? '',
    templates: settings.templates ?? [],
    url: settings.url ?? '',
    text: settings.text ?? '',
  };
}

function WhatsappForm({ channel }: { channel: WhatsappChannel | null }) {
  const { t } = useTranslation([NS, 'translation']);
  const client = useQueryClient();
  const form = useForm<WhatsappValues>({ defaultValues: whatsappValues(channel) });
  const { errors, isSubmitting } = form.formState;
  const outcome = useOutcome();
  const [confirming, setConfirming] = useState(false);
  const provider = form.watch('provider');
  const keepsToken = channel !== null && channel.provider === provider;

  const adopt = (next: WhatsappChannel | null) => {
    client.setQueryData(whatsappQuery.queryKey, next);
    form.reset(whatsappValues(next));
  };

  const submit = form.handleSubmit(async (values) => {
    outcome.start();
    const settings =
      values.provider === 'cloud-api'
        ? { phoneNumberId: values.phoneNumberId.trim(), templates: values.templates }
        : { url: values.url.trim(), ...(values.text.trim() ? { text: values.text } : {}) };
    try {
      const { data } = await unwrap(api.PUT('/settings/whatsapp', { body: { provider: values.provider, ...(values.token ? { token: values.token } : {}), settings } }));
      adopt(data.channel);
      outcome.done(t('saved'));
    } catch (error) {
      outcome.failed(error, (problem) =>
        applyFieldErrors(
          renamedFields(problem, (path) => path.replace(/^settings\./, '').replace(/\[\d+\]$/, '')),
          form.setError,
          WHATSAPP_FIELDS,
          (field) => fieldText(t, field),
        ),
      );
    }
  });

  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE('/settings/whatsapp')),
    onSuccess: () => {
      setConfirming(false);
      adopt(null);
      outcome.done(t('whatsapp.removed'));
    },
  });

  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="whatsapp-heading">
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack>
          <Group justify="space-between">
            <Title order={2} size="h4" id="whatsapp-heading">
              {t('whatsapp.heading')}
            </Title>
            {channel && <Badge variant="outline" color="dark.6">{t('whatsapp.tokenSet')}</Badge>}
          </Group>
          {!channel && <Text c="dimmed">{t('whatsapp.none')}</Text>}
          <Controller
            control={form.control}
            name="provider"
            render={({ field }) => (
              <Radio.Group label={t('whatsapp.provider')} value={field.value} onChange={(value) => field.onChange(value as Provider)}>
                <Group mt="xs">
                  {(['cloud-api', 'gateway'] as const).map((value) => (
                    <Radio key={value} value={value} label={t(`whatsapp.providers.${value}`)} />
                  ))}
                </Group>
              </Radio.Group>
            )}
          />
          <PasswordInput
            label={t('whatsapp.token')}
            description={keepsToken ? t('whatsapp.tokenHelpSet') : t('whatsapp.tokenHelpNew')}
            required={!keepsToken}
            autoComplete="new-password"
            maxLength={4096}
            error={errors.token?.message}
            {...form.register('token', keepsToken ? {} : { required: t('field.required') })}
          />
          {provider === 'cloud-api' ? (
            <>
              <TextInput
                label={t('whatsapp.phoneNumberId')}
                required
                inputMode="numeric"
                maxLength={30}
                error={errors.phoneNumberId?.message}
                {...form.register('phoneNumberId', { required: t('field.required') })}
              />
              <Controller
                control={form.control}
                name="templates"
                render={({ field }) => (
                  <TagsInput
                    label={t('whatsapp.templates')}
                    description={t('whatsapp.templatesHelp')}
                    maxTags={50}
                    error={errors.templates?.message}
                    value={field.value}
                    onChange={field.onChange}
                    onBlur={field.onBlur}
                    ref={field.ref}
                    name={field.name}
                  />
                )}
              />
            </>
          ) : (
            <>
              <TextInput
                label={t('whatsapp.url')}
                type="url"
                required
                maxLength={2048}
                placeholder="https://"
                error={errors.url?.message}
                {...form.register('url', { required: t('field.required') })}
              />
              <Textarea
                label={t('whatsapp.text')}
                description={t('whatsapp.textHelp', { example: '{{name}}, {{url}}' })}
                autosize
                minRows={2}
                maxLength={1000}
                error={errors.text?.message}
                {...form.register('text')}
              />
            </>
          )}
          <FormOutcome saved={outcome.saved} problem={outcome.problem ?? (remove.isError ? problemText(t, remove.error) : null)} />
          <Group>
            <Button type="submit" loading={isSubmitting}>
              {t('save')}
            </Button>
            {channel && (
              <Button variant="outline" color="red.9" onClick={() => setConfirming(true)}>
                {t('whatsapp.remove')}
              </Button>
            )}
          </Group>
        </Stack>
      </form>
      <Modal opened={confirming} onClose={() => setConfirming(false)} title={t('whatsapp.remove')} centered>
        <Text>{t('whatsapp.removeConfirm')}</Text>
        <Group mt="md" justify="flex-end">
          <Button variant="default" onClick={() => setConfirming(false)}>
            {t('cancel')}
          </Button>
          <Button color="red.9" loading={remove.isPending} onClick={() => remove.mutate()}>
            {t('remove')}
          </Button>
        </Group>
      </Modal>
    </Paper>
  );
}
