/**
 * The Statistics page's first data, asked for by the route's loader: it leaves with the page's
 * chunks instead of after them (the forms, and the chosen form's description and whole figures).
 * Not awaited: the page shows its own loading and error states, as on a form picked later.
 */
import type { QueryClient } from '@tanstack/react-query';
import { chosenForm } from '../responses/chosen-form';
import { formQuery, formsQuery } from '../responses/responses-api';
import { statisticsQuery } from './statistics-api';

export function prefetchStatistics(client: QueryClient): void {
  void client.prefetchQuery(formsQuery);
  const formId = chosenForm();
  if (formId === null) return;
  void client.prefetchQuery(formQuery(formId));
  void client.prefetchQuery(statisticsQuery(formId, { dims: {} }));
}
