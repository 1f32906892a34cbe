/** The Invites area: a form's invites with counts per status, the list over the API's cursor, and the acts on them. */
import { Select, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../ui/empty-state';
import { CreateInviteDialog } from './create-invite-dialog';
import { ImportDialog } from './import-dialog';
import { formsQuery } from './invites-api';
import { InviteList } from './invite-list';
import { SendDialog, type SendSelection } from './send-dialog';
import { NS } from './strings';
import { LoadError, Loading } from '../../ui/area-state';

type Dialog = { kind: 'create' } | { kind: 'import' } | { kind: 'send'; selection: SendSelection } | null;

export function InvitesPage() {
  const { t } = useTranslation(NS);
  const { form: formId } = useSearch({ from: '/app/invites' });
  const navigate = useNavigate({ from: '/invites' });
  const forms = useQuery(formsQuery);
  const [dialog, setDialog] = useState<Dialog>(null);
  const form = forms.data?.find((candidate) => candidate.id === formId);

  return (
    <Stack>
      <Title order={1}>{t('title')}</Title>
      {forms.isPending ? (
        <Loading />
      ) : forms.isError ? (
        <LoadError error={forms.error} retry={() => void forms.refetch()} />
      ) : forms.data.length === 0 ? (
        <EmptyState title={t('title')} body={t('noForms')} />
      ) : (
        <>
          <Select
            label={t('form')}
            placeholder={t('formPlaceholder')}
            data={forms.data.map((f) => ({ value: f.id, label: f.name }))}
            value={form?.id ?? null}
            onChange={(value) => void navigate({ search: { form: value ?? undefined } })}
            searchable
            maw={480}
          />
          {form ? (
            <InviteList
              key={form.id}
              form={form}
              onCreate={() => setDialog({ kind: 'create' })}
              onImport={() => setDialog({ kind: 'import' })}
              onSend={(selection) => setDialog({ kind: 'send', selection })}
            />
          ) : (
            <Text c="dimmed">{t('pickForm')}</Text>
          )}
          {form && dialog?.kind === 'create' && <CreateInviteDialog formId={form.id} onClose={() => setDialog(null)} />}
          {form && dialog?.kind === 'import' && (
            <ImportDialog formId={form.id} onClose={() => setDialog(null)} onSend={(batchId) => setDialog({ kind: 'send', selection: { batchId } })} />
          )}
          {form && dialog?.kind === 'send' && <SendDialog formId={form.id} selection={dialog.selection} onClose={() => setDialog(null)} />}
        </>
      )}
    </Stack>
  );
}
