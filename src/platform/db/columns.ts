import { customType, timestamp, uuid } from 'drizzle-orm/pg-core';

/** timestamptz(3): the same instant in JSON, in a cursor and in the database. */
export const ts = (name: string) => timestamp(name, { precision: 3, withTimezone: true, mode: 'date' });
export const companyId = () => uuid('company_id').notNull();
export const bytea = customType<{ data: Buffer }>({ dataType: () => 'bytea' });
