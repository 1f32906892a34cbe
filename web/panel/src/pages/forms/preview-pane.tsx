/**
 * The live preview: the unsaved definition rendered by the server's respondent pages (the same
 * renderer as the real link), shown in a sandboxed frame at a phone's or a desktop's width, scaled
 * to fit. The frame has an opaque origin (no allow-same-origin) and never allow-forms, so the page
 * can neither reach the panel nor submit. Its own script runs (conditions, the section's checks);
 * "Try it" makes it answerable, a fresh page each time.
 */
import { Alert, Button, Group, Paper, SegmentedControl, Select, Stack, Text, Title } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import { FORMS } from './forms-api';
import { NS } from './strings';

const WIDTHS = { phone: 390, desktop: 1366 } as const;
const HEIGHT = 760;

export function PreviewPane({ formId, file }: { formId: string; file: unknown }) {
  const { t } = useTranslation(NS);
  const [width, setWidth] = useState<keyof typeof WIDTHS>('phone');
  const [section, setSection] = useState<number | undefined>(undefined);
  const [trying, setTrying] = useState(false);
  const { ref, width: boxWidth } = useElementSize();
  const preview = useQuery({
    queryKey: [...FORMS, formId, 'preview', file, section],
    queryFn: async () => (await unwrap(api.POST('/forms/{id}/preview', { params: { path: { id: formId } }, body: { definition: file, sectionIndex: section } }))).data,
    placeholderData: keepPreviousData,
    retry: false,
    staleTime: Infinity,
  });
  const frameWidth = WIDTHS[width];
  const scale = boxWidth > 0 ? Math.min(1, boxWidth / frameWidth) : 1;
  const data = preview.data;
  return (
    <Paper withBorder p="sm" component="section" aria-labelledby="preview-title">
      <Stack gap="xs">
        <Title order={2} size="h4" id="preview-title">
          {t('preview.title')}
        </Title>
        <Text size="sm">{t('preview.intro')}</Text>
        <Group gap="sm" align="flex-end" wrap="wrap">
          <SegmentedControl
            aria-label={t('preview.width')}
            value={width}
            onChange={(value) => setWidth(value as keyof typeof WIDTHS)}
            data={[
              { value: 'phone', label: t('preview.phone') },
              { value: 'desktop', label: t('preview.desktop') },
            ]}
          />
          {data && data.sections.length > 1 && (
            <Select
              label={t('preview.section')}
              data={data.sections.map((s, i) => ({ value: String(i), label: `${i + 1}. ${s.name}` }))}
              value={String(data.sectionIndex)}
              onChange={(value) => value !== null && setSection(Number(value))}
              allowDeselect={false}
              w={220}
            />
          )}
          <Button variant={trying ? 'filled' : 'default'} aria-pressed={trying} onClick={() => setTrying((x) => !x)}>
            {t(trying ? 'preview.stopTrying' : 'preview.tryIt')}
          </Button>
        </Group>
        {trying && <Text size="sm">{t('preview.trying')}</Text>}
        {preview.isError && (
          <Alert color="yellow" c="dark.9" data-testid="preview-stale">
            {t('preview.invalid')}
          </Alert>
        )}
        <div ref={ref} style={{ width: '100%', height: HEIGHT * scale, overflow: 'hidden', border: '1px solid var(--mantine-color-gray-4)' }}>
          {data && (
            <iframe
              // a new frame when trying starts or stops: it begins empty
              key={trying ? 'try' : 'view'}
              title={t('preview.frame', { width: frameWidth })}
              data-testid="form-preview"
              data-width={frameWidth}
              sandbox="allow-scripts"
              // until trying, a picture of the page: not focusable, so the keyboard never walks through it
              inert={!trying}
              srcDoc={data.html}
              style={{ width: frameWidth, height: HEIGHT, border: 0, transform: `scale(${scale})`, transformOrigin: '0 0', display: 'block' }}
            />
          )}
        </div>
      </Stack>
    </Paper>
  );
}
