import { Type, type Static } from '@sinclair/typebox';
import { closed } from '../../../lib/schema-pieces.js';


export const PingDataSchema = Type.Object({ message: Type.String() }, closed);
export type PingData = Static<typeof PingDataSchema>;

export const PING_EVENT_SCHEMAS = { ping: PingDataSchema };
export interface PingEventData {
  ping: PingData;
}

export function pingData(message: string): PingData {
  return { message };
}
