import type { Tx } from '../../platform/db/database.js';
import type { EmitDeps } from '../events/index.js';
import type { FormRecord } from '../forms/index.js';
import type { responses } from './table.js';

export type StoredResponse = typeof responses.$inferSelect;

/** What a consumer may use: the clock, ids and the event consumers (to emit in the same transaction). */
export type ResponseConsumerDeps = EmitDeps;

/**
 * A feature that acts on every new response inside the response's own transaction (goals decide a
 * crossing, treatments open a case): what it decides commits with the response or not at all.
 * Listed in the feature's feature.ts; the context hands the list to recordResponse through its deps.
 */
export interface ResponseConsumer {
  name: string;
  onResponse(tx: Tx, deps: ResponseConsumerDeps, response: StoredResponse, form: Pick<FormRecord, 'id' | 'companyId' | 'content'>): Promise<void>;
}

/** What a consumer does, in the module lazyResponseConsumer loads (src/features/feature.ts); the registry holds its name. */
export type ResponseHandler = Pick<ResponseConsumer, 'onResponse'>;
