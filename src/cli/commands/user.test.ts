import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliRuntime, runQuorum } from '../../../test/cli.js';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { PanelClient } from '../../../test/panel.js';
import { describeError } from '../output.js';
import type { CliRuntime } from '../runtime.js';
import { describeUser, userCommands as run } from './user.js';

let t: TestApp;
let rt: CliRuntime;
let slug: string;
let otherSlug: string;
const dir = mkdtempSync(join(tmpdir(), 'quorum-user-cli-'));
beforeAll(async () => {
  t = await startTestApp();
  rt = cliRuntime(t);
  slug = (await t.company('Escola Oeste')).slug;
  otherSlug = (await t.company('Escola Centro')).slug;
});
afterAll(async () => t?.close());

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (err: unknown) => describeError(err).message,
  );
const tokenOf = (text: string) => /\/set-password#token=([A-Za-z0-9_-]{43})/.exec(text)![1];

describe('quorum user', () => {
  it('the binary: create prints a set-password link (never a password) that works in the panel', async () => {
    const created = await runQuorum(['user', 'create', '--company', slug, '--email', 'Rita.Gomes@School.test', '--name', 'Rita Gomes', '--permissions', 'forms,invites'], {
      DATABASE_URL: t.databaseUrl,
      QUORUM_DATA_DIR: dir,
      PUBLIC_PANEL_URL: t.ctx.config.publicPanelUrl,
    });
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toContain(`created user Rita.Gomes@School.test to ${slug} (forms, invites)`);
    expect(created.stdout).toContain(`${t.ctx.config.publicPanelUrl}/set-password#token=`);
    const set = await new PanelClient(t).post(null, '/panel/api/password', { token: tokenOf(created.stdout), password: 'rita chose this one' });
    expect(set.statusCode).toBe(200);
    expect(set.json().data).toMatchObject({ permissions: ['forms', 'invites'], owner: false, company: { name: 'Escola Oeste' } });
  }, 120_000);

  it('one account across companies; list shows memberships; the last owner stays; remove', async () => {
    const first = await run.create(rt, { args: [], opts: { company: slug, email: 'joao@school.test', name: 'João' } });
    expect(describeUser.create(first)).toContain(`created user joao@school.test to ${slug} (no permissions)\nset-password link`);
    const second = await run.create(rt, { args: [], opts: { company: otherSlug, email: 'JOAO@school.test', owner: true } });
    // no password yet: a fresh link, no new account
    expect(second).toMatchObject({ id: first.id, created: false, owner: true });
    expect(second.setPasswordUrl).toContain('#token=');
    expect(await failure(run.create(rt, { args: [], opts: { company: otherSlug, email: 'joao@school.test' } }))).toContain('already a member');

    const listed = await run.list(rt, { args: [], opts: {} });
    expect(listed.find((row) => row.email === 'joao@school.test')).toEqual({
      id: first.id,
      email: 'joao@school.test',
      name: 'João',
      passwordSet: false,
      companies: [
        { company: otherSlug, owner: true, permissions: ['integrations', 'forms', 'invites', 'responses', 'rosters', 'treatments', 'settings'] },
        { company: slug, owner: false, permissions: [] },
      ].sort((a, b) => a.company.localeCompare(b.company)),
    });
    expect(describeUser.list(listed)).toContain(`${otherSlug}:owner`);

    expect(await failure(run.remove(rt, { args: [], opts: { email: 'joao@school.test', company: otherSlug } }))).toContain('last owner');
    expect(await failure(run.remove(rt, { args: [], opts: { email: 'joao@school.test' } }))).toContain('last owner');
    const removed = await run.remove(rt, { args: [], opts: { email: 'joao@school.test', company: slug } });
    expect(describeUser.remove(removed)).toBe('removed joao@school.test from the company');
    expect((await run.list(rt, { args: [], opts: { company: slug } })).map((row) => row.email)).not.toContain('joao@school.test');
    expect(await failure(run.remove(rt, { args: [], opts: { email: 'nobody@school.test' } }))).toContain('not found');
  });
});
