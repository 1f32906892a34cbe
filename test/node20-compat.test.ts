import { createRequire } from 'node:module';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';

/*
 * cookie@2 (light-my-request, behind app.inject) and content-disposition@3 (@fastify/static, behind /docs)
 * declare "node": ">=22", so npm ci warns EBADENGINE on Node 20. Their dependants need these majors'
 * APIs (stringifySetCookie, create), so no override can pin older ones: this proves, on the Node running
 * the suite (CI: 20.19), that the code paths Quorum reaches work.
 */
const require = createRequire(import.meta.url);
const dependantRequire = (dependant: string) => createRequire(require.resolve(dependant));

describe('dependencies that declare Node >= 22', () => {
  it('cookie@2 parses and writes cookies, through light-my-request as the harness uses it', async () => {
    const cookie = dependantRequire('light-my-request')('cookie') as typeof import('cookie');
    expect(cookie.parseCookie('a=1; b=%C3%A9')).toEqual({ a: '1', b: 'é' });
    expect(cookie.stringifySetCookie({ name: 'sid', value: 'x y', httpOnly: true, maxAge: 60 })).toBe('sid=x%20y; Max-Age=60; HttpOnly');

    const app = Fastify();
    app.get('/', async (_request, reply) => reply.header('set-cookie', 'sid=abc; Path=/').send('ok'));
    const res = await app.inject({ url: '/', cookies: { sent: 'yes' } });
    expect(res.cookies).toEqual([{ name: 'sid', value: 'abc', path: '/' }]);
    await app.close();
  });

  it('content-disposition@3 builds and parses headers with non-ASCII file names', () => {
    const contentDisposition = dependantRequire('@fastify/static')('content-disposition') as {
      create: (name: string) => string;
      parse: (header: string) => { type: string; parameters: Record<string, string> };
    };
    const header = contentDisposition.create('résumé.pdf');
    expect(header).toBe(`attachment; filename="r?sum?.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf`);
    expect(contentDisposition.parse(header)).toMatchObject({ type: 'attachment', parameters: { filename: 'résumé.pdf' } });
  });
});
