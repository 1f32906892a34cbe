/**
 * Exit codes of the import commands (roster, invite), so a scheduled import cannot fail quietly. A
 * failure (unreadable input, a refused sync) is 1 as for every command; these say how much of a
 * printed result held.
 */
export const IMPORT_EXIT = { ok: 0, someRefused: 2, allRefused: 3 } as const;

/** 0 when no row was refused; someRefused, or allRefused when every row read was. */
export function importExitCode(refused: number, read: number): number {
  if (refused === 0) return IMPORT_EXIT.ok;
  return refused === read ? IMPORT_EXIT.allRefused : IMPORT_EXIT.someRefused;
}
