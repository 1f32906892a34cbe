import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import type { ChildLoadPlan } from './support.js';

/**
 * The load generator in its own process (issue 28: one sharing the server's thread pulls every
 * ratio toward 1). argv[2] is a JSON LoadPlan; prints the autocannon summary as one JSON line.
 * `{n}` in the body becomes a counter and `{uuid}` in a header value a fresh UUID per request;
 * with pathsFile, each request takes the file's next line as its path (one invite's link each).
 */
const plan = JSON.parse(process.argv[2]) as ChildLoadPlan;
const paths = plan.pathsFile ? readFileSync(plan.pathsFile, 'utf8').split('\n').filter(Boolean) : null;
let n = 0;
let next = 0;
const result = await autocannon({
  url: plan.url,
  connections: plan.connections,
  duration: plan.seconds,
  requests: [
    {
      method: plan.method,
      setupRequest: (req) => ({
        ...req,
        headers: Object.fromEntries(Object.entries(plan.headers).map(([k, v]) => [k, v === '{uuid}' ? randomUUID() : v])),
        ...(plan.body === undefined ? {} : { body: plan.body.replaceAll('{n}', String(n++)) }),
        ...(paths ? { path: paths[next++ % paths.length] } : {}),
      }),
    },
  ],
});
console.log(JSON.stringify({ requestsPerSec: result.requests.average, total: result.requests.total, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx }));
