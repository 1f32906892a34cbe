import pg from 'pg';

const RECONNECT_MS = 1000;

export type ListenLog = (level: 'info' | 'warn' | 'error', message: string) => void;

export interface ChannelListener {
  readonly connected: boolean;
  /** The live connection (null while reconnecting), for state its owner shows on it. */
  readonly client: pg.Client | null;
  close(): Promise<void>;
}

export interface ChannelHandlers {
  onNotify(payload: string): void;
  /** Runs on each new connection after the LISTEN and before it counts as connected; a failure reconnects. */
  prepare?(client: pg.Client): Promise<unknown>;
  /** Called on every (re)connection: notifications sent while disconnected are lost. */
  onConnect?(): void;
  onDisconnect?(): void;
}

/**
 * LISTENs on one channel on a dedicated connection (a pooled one would be returned and lose the
 * LISTEN), reconnecting when it drops. The key cache (revocations) and the outbound loops (wake-ups)
 * both listen through it.
 */
export async function listenChannel(connection: pg.ClientConfig, channel: string, handlers: ChannelHandlers, log: ListenLog): Promise<ChannelListener> {
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
      handlers.onDisconnect?.();
      if (closed) return;
      void client.end().catch(() => undefined);
      log('warn', `listener on ${channel} disconnected (${err?.message ?? 'connection ended'}); reconnecting`);
      retry = setTimeout(() => void connect(), RECONNECT_MS);
    };
    client.on('error', drop);
    client.on('end', () => drop());
    client.on('notification', (message) => handlers.onNotify(message.payload ?? ''));
    try {
      await client.connect();
      await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      await handlers.prepare?.(client);
    } catch (err) {
      drop(err as Error);
      return;
    }
    if (closed) return void (await client.end());
    current = client;
    handlers.onConnect?.();
  }

  await connect();
  return {
    get connected() {
      return current !== null;
    },
    get client() {
      return current;
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      await current?.end().catch(() => undefined);
    },
  };
}
