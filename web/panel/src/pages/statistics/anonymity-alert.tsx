/** A cut refused under the anonymity floor: why, in words, with the floor and never the count of authors. */
import { useTranslation } from 'react-i18next';
import { ApiProblem } from '../../api/errors';
import { Notice } from './notice';
import { STATISTICS_NS } from './strings';

export const isAnonymityRefusal = (error: unknown): error is ApiProblem => error instanceof ApiProblem && error.code === 'ANONYMITY_SUPPRESSED';

export function AnonymityAlert({ error }: { error: ApiProblem }) {
  const { t } = useTranslation(STATISTICS_NS);
  return (
    <Notice role="status">
      {t('anonymity', { floor: Number(error.details?.floor ?? 0) })}
    </Notice>
  );
}
