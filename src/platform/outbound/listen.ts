import type pg from 'pg';
import { listenChannel } from '../db/listen-channel.js';
import type { LogFn } from './kind.js';
import { sleeperName } from './wake-sleepers.js';

export interface Listener {
  /** Shows (or stops showing) the loop as asleep to the queueing transactions (see wakeSleepers); resolves once shown. */
  setAsleep(asleep: boolean): Promise<void>;
  close(): Promise<void>;
}

/**
 * LISTENs on `channel` (src/platform/db/listen-channel.ts); the connection's application_name says whether
 * the loop sleeps. Notifications sent while disconnected are lost, so every (re)connection also
 * wakes the loop once; the loop's slow poll covers the rest.
 */
export async function listenForWork(connection: pg.ClientConfig, channel: string, onWake: () => void, log: LogFn): Promise<Listener> {
  let asleep = false;
  const showState = (client: pg.Client) =>
    client.query(`SET application_name = ${client.escapeLiteral(asleep ? sleeperName(channel) : `quorum: ${channel}`)}`);
  const listener = await listenChannel(connection, channel, { onNotify: onWake, prepare: showState, onConnect: onWake }, log);
  return {
    async setAsleep(value) {
      asleep = value;
      // A dropped connection shows nothing; the reconnection shows the state then current.
      if (listener.client) await showState(listener.client).catch(() => undefined);
    },
    close: () => listener.close(),
  };
}
