/**
 * The grouped report: one row per group. A suppressed group shows the word and no figure at all,
 * and the page shows no total of the groups (the API already keeps every visible difference at or
 * above the floor; a sum here could only add a way to subtract).
 */
import { Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { LoadError, Loading } from '../../ui/area-state';
import { ScrollRegion } from '../../ui/scroll-region';
import type { Cut } from '../responses/responses-api';
import { AnonymityAlert, isAnonymityRefusal } from './anonymity-alert';
import { Notice } from './notice';
import { reportQuery } from './statistics-api';
import { STATISTICS_NS } from './strings';

export function ReportTable({ formId, cut, groupBy }: { formId: string; cut: Cut; groupBy: string }) {
  const { t, i18n } = useTranslation(STATISTICS_NS);
  const report = useQuery(reportQuery(formId, cut, groupBy));
  if (report.isPending) return <Loading />;
  if (report.isError) return isAnonymityRefusal(report.error) ? <AnonymityAlert error={report.error} /> : <LoadError error={report.error} retry={() => void report.refetch()} />;
  const { groups, truncated, scanned } = report.data;
  const format = (n: number) => new Intl.NumberFormat(i18n.language).format(n);
  return (
    <>
      {truncated && (
        <Notice role="status">
          {t('truncated', { scanned: format(scanned) })}
        </Notice>
      )}
      {groups.length === 0 ? (
        <Text>{t('noGroups')}</Text>
      ) : (
        <ScrollRegion label={t('groups')} minWidth={340}>
          <Table striped data-testid="report-table">
            <caption style={{ captionSide: 'top', textAlign: 'left' }}>{t('groups')}</caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('group')}</Table.Th>
                <Table.Th scope="col">{t('count')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {groups.map((group) => (
                <Table.Tr key={group.key} data-suppressed={group.suppressed}>
                  <Table.Th scope="row" fw={400} style={{ overflowWrap: 'anywhere' }}>
                    {group.name ?? group.key}
                  </Table.Th>
                  <Table.Td>
                    {group.suppressed || !group.statistics ? (
                      <Text span fw={700} title={t('suppressedHelp')}>
                        {t('suppressed')}
                      </Text>
                    ) : (
                      `${t('responses', { count: group.statistics.responseCount, n: format(group.statistics.responseCount) })} · ${t('completed', { n: format(group.statistics.completedCount) })}`
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollRegion>
      )}
    </>
  );
}
