import { promises as fs } from 'node:fs';
import path from 'node:path';

/** One process the topology started, stopped by its pid (never by name: other services share the machine). */
export interface Started {
  name: string;
  pid: number;
}

/** What `start` leaves for `stop` and `status`, in `<dir>/state.json`. */
export interface TopologyState {
  dir: string;
  primaryUrl: string;
  replicaUrl: string;
  redisUrl: string;
  balancerUrl: string;
  apiUrls: string[];
  /** What every quorum process was started with (secrets included: the file is 0600), so one can be started again. */
  settings: Record<string, string>;
  /** Quorum runs from src/ through tsx (`--source`). */
  source: boolean;
  /** Postgres data directories, stopped with pg_ctl (primary first in the list, stopped last). */
  clusters: { name: string; pgData: string; port: number; binDir: string }[];
  /** Every other process, in start order; stopped in reverse. */
  processes: Started[];
}

export const stateFile = (dir: string) => path.join(dir, 'state.json');

export async function readState(dir: string): Promise<TopologyState | null> {
  const text = await fs.readFile(stateFile(dir), 'utf8').catch(() => null);
  return text === null ? null : (JSON.parse(text) as TopologyState);
}

/** Written after each step, so a start that fails half-way can still be stopped. */
export async function writeState(state: TopologyState): Promise<void> {
  await fs.writeFile(stateFile(state.dir), `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
}
