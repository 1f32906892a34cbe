import pg from 'pg';
import type { LogFn } from './kind.js';

const RECONNECT_MS = 1000;

export interface Listener {
  close(): Promise<void>;
}

/**
 * LISTENs on `channel` on a dedicated connection (a pooled one would be returned and lose the
 * LISTEN), reconnecting when it drops. Notifications sent while disconnected are lost, so every
 * (re)connection also wakes the loop once; the loop's slow poll covers the rest.
 */
export async function listenForWork(connection: pg.ClientConfig, channel: string, onWake: () => void, log: LogFn): Promise<Listener> {
  let current: pg.Client | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  async function connect(): Promise<void> {
    const client = new pg.Client(connection);
    let dropped = false;
    const drop = (err?: Error) => {
      if (dropped) return;
      dropped = true;
      if (current === client) current = null;
      if (closed) return;
      void client.end().catch(() => undefined);
      log('warn', `listener on ${channel} disconnected (${err?.message ?? 'connection ended'}); reconnecting`);
      retry = setTimeout(() => void connect(), RECONNECT_MS);
    };
    client.on('error', drop);
    client.on('end', () => drop());
    client.on('notification', onWake);
    try {
      await client.connect();
      await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    } catch (err) {
      drop(err as Error);
      return;
    }
    if (closed) return void (await client.end());
    current = client;
    onWake();
  }

  await connect();
  return {
    async close() {
      closed = true;
      clearTimeout(retry);
      await current?.end().catch(() => undefined);
    },
  };
}
