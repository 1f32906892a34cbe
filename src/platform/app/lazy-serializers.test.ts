import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.js';

/** Every other test runs on lazily compiled serializers; this one proves they all compile and answer alike. */
describe('response serializers', () => {
  let eager: TestApp;
  let lazy: TestApp;
  beforeAll(async () => {
    // startTestApp waits for app.ready(), where the eager app compiles every route's response schemas.
    eager = await startTestApp({ eagerSerializers: true });
    lazy = await startTestApp();
  });
  afterAll(async () => {
    await eager?.close();
    await lazy?.close();
  });

  it('every route and status compiles at start-up when asked to', () => {
    expect(eager.app.hasRoute({ method: 'GET', url: '/v1/forms' })).toBe(true);
  });

  it('compiled on first use, they write the same bytes as compiled at start-up, success and refusal', async () => {
    const shape = async (app: TestApp) => {
      const tenant = await app.tenant();
      const bodies = [(await app.get(null, '/v1/forms')).body, (await app.get(tenant.token, '/v1/forms?limit=0')).body, (await app.get(tenant.token, '/v1/forms')).body];
      return bodies.map((body) => body.replace(/"[0-9a-f-]{36}"/g, '"id"').replace(/"20\d\d-[^"]+"/g, '"time"'));
    };
    const answers = await shape(lazy);
    expect(answers.map((body) => JSON.parse(body).success)).toEqual([false, false, true]);
    expect(answers).toEqual(await shape(eager));
  });
});
