/// <reference types="vite/client" />
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';

// Every command file, as main.ts registers them (a group's own file adds its subgroups, e.g. form → goal).
const commandFiles = import.meta.glob<Record<string, unknown>>(['./commands/*.ts', '!./commands/*.test.ts'], { eager: true });

/** Every command under `command`, with its full name ("quorum mail list"). */
function walk(command: Command, prefix: string): { name: string; description: string }[] {
  return command.commands.flatMap((sub) => {
    const name = `${prefix} ${sub.name()}`;
    return [{ name, description: sub.description() }, ...walk(sub, name)];
  });
}

describe('the CLI help', () => {
  it('describes every command and subcommand, so each group help says what its subcommands do', () => {
    // Each register function on a root of its own: a subgroup's (form goal) then sits at the top, still walked.
    const roots = Object.values(commandFiles)
      .flatMap((exports) => Object.entries(exports).filter(([name, value]) => /^register\w+Commands$/.test(name) && typeof value === 'function'))
      .map(([, register]) => {
        const root = new Command('quorum');
        (register as (program: Command) => void)(root);
        return root;
      });
    const commands = roots.flatMap((root) => walk(root, 'quorum'));
    expect(commands.length).toBeGreaterThan(50);
    expect(commands.filter((c) => c.description.trim() === '').map((c) => c.name)).toEqual([]);
  });
});
