/**
 * The malformed-request corpus: requests of every wrong type, size and encoding, and raw bytes
 * that are not HTTP at all. The corpus test replays it against a running server and demands
 * zero 5xx and every answer in the error envelope with x-request-id. Add each new route here:
 * GET routes to GET_ROUTES (and LIST_ROUTES when it pages), body routes to BODY_ROUTES.
 * `{token}` is replaced by a valid key, `{id}` by an id that names nothing.
 */
export interface HttpCase {
  name: string;
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: string;
  /** Send the valid key as bearer (the default), so the request reaches validation. */
  auth?: boolean;
}

export interface RawCase {
  name: string;
  /** Bytes written to a TCP socket as they are (latin1), `{token}` replaced. */
  bytes: string;
}

export const GET_ROUTES = ['/v1/me', '/v1/forms', '/v1/forms/{id}', '/v1/forms/{id}/responses', '/v1/responses/{id}', '/v1/events'];
export const LIST_ROUTES: Record<string, string[]> = {
  '/v1/forms': ['page', 'limit'],
  '/v1/events': ['cursor', 'limit', 'type', 'since'],
  '/v1/forms/{id}/responses': ['cursor', 'limit', 'include', 'from', 'to', 'dim.course'],
};
/** Body routes of the platform; the corpus test mounts a probe until real ones exist. */
export const BODY_ROUTES = ['/v1/_probe/echo'];

/** The respondent API (no key): its body routes with an unknown token or pair, its GET routes, its upload. */
const UNKNOWN_INVITE = `/r/v1/invites/${'A'.repeat(43)}`;
export const RESPONDENT_BODY_ROUTES: Array<[string, string]> = [
  ['PUT', `${UNKNOWN_INVITE}/draft`],
  ['POST', `${UNKNOWN_INVITE}/submit`],
  ['POST', '/r/v1/forms/no-company/no-form/responses'],
];
export const RESPONDENT_GET_ROUTES = ['/r/v1/invites/{x}', '/r/v1/forms/{x}/survey', '/r/v1/forms/acme/{x}'];
const RESPONDENT_BODIES: Array<[string, string]> = [
  ['answers not an object', '{"answers":[1]}'],
  ['answers null', '{"answers":null}'],
  ['unknown field', '{"answers":{},"sectionIndex":0,"admin":true}'],
  ['huge sectionIndex', '{"answers":{},"sectionIndex":1e400}'],
  ['respondent as string', '{"answers":{},"respondent":"me"}'],
  ['dims nested', '{"answers":{},"dims":{"unit":{"$gt":""}}}'],
  ['NUL in an answer', '{"answers":{"q":"a\\u0000b"}}'],
  ['proto answers', '{"answers":{"__proto__":{"polluted":true}}}'],
];
const MULTIPART_BODIES: Array<[string, string, string]> = [
  ['no boundary', 'x', 'multipart/form-data'],
  ['truncated', '--b\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\nabc', 'multipart/form-data; boundary=b'],
  ['only a field', '--b\r\nContent-Disposition: form-data; name="x"\r\n\r\ny\r\n--b--\r\n', 'multipart/form-data; boundary=b'],
  ['two files', ['a', 'b'].map((n) => `--b\r\nContent-Disposition: form-data; name="${n}"; filename="${n}.txt"\r\nContent-Type: text/plain\r\n\r\n${n}\r\n`).join('') + '--b--\r\n', 'multipart/form-data; boundary=b'],
  ['empty', '', 'multipart/form-data; boundary=b'],
  ['JSON instead', '{"file":"x"}', 'application/json'],
];

const BAD_QUERY_VALUES = [
  'Infinity', '-Infinity', '1e400', '-1e400', 'NaN', '0x10', '0b11', '0o17', '%205%20', '%2B5', '1.0', '5.', '-0', '', '00',
  '%00', 'a%00b', '%FF', '%E2%82', '%C0%AF', '%ED%A0%80', '%EF%BF%BF', '%F0%9F%92%A9', 'true', 'null', '[]', '%7B%7D',
  '9'.repeat(400), 'x'.repeat(4000), '2026-06-30T23:59:60Z', '2026-06-30T23:59:60.5%2B02:00', '2026-02-30', '0000-00-00T00:00:00Z',
  '%2B275760-09-13T00:00:00Z', '-271821-04-20T00:00:00Z', '2026-13-01T00:00:00Z', '..%2F..%2Fetc%2Fpasswd', "'%3B--", '%3Cscript%3E',
];

const BAD_IDS = [
  'x', 'x'.repeat(101), 'x'.repeat(3000), '%00', 'a%00', '%ZZ', '%', '%E2%82', '..', '%2e%2e', '%2F', 'null', '-1', '1e400',
  '00000000-0000-0000-0000-000000000000', 'FFFFFFFF-FFFF-7FFF-BFFF-FFFFFFFFFFFF', '01964f6e-2c1a-7b3e-9f00-5a1d2c3b4e5f%00', '%F0%9F%92%A9', '%3Cscript%3E',
];

const BAD_BODIES: Array<[string, string, string?]> = [
  ['empty object', '{}'],
  ['truncated', '{"name": '],
  ['null', 'null'],
  ['array', '[]'],
  ['string', '"name"'],
  ['number', '1e400'],
  ['huge number', '{"name":"x","count":1e400}'],
  ['negative zero count', '{"name":"x","count":-0.0}'],
  ['float count', '{"name":"x","count":1.5}'],
  ['string count', '{"name":"x","count":"0x10"}'],
  ['NUL value', '{"name":"a\\u0000b"}'],
  ['NUL key', '{"name":"x","a\\u0000":1}'],
  ['lone surrogate', '{"name":"\\ud800"}'],
  ['proto key', '{"name":"x","__proto__":{"polluted":true}}'],
  ['constructor key', '{"name":"x","constructor":{"prototype":{"polluted":true}}}'],
  ['deep nesting', `{"name":"x","extra":${'['.repeat(50_000)}${']'.repeat(50_000)}}`],
  ['wide object', `{${Array.from({ length: 20_000 }, (_, i) => `"k${i}":${i}`).join(',')}}`],
  ['duplicate keys', '{"name":"a","name":"b"}'],
  ['trailing garbage', '{"name":"x"} trailing'],
  ['comments', '{"name":"x" /* c */}'],
  ['single quotes', "{'name':'x'}"],
  ['BOM', '\ufeff{"name":"x"}'],
  ['over 1 MiB', `{"name":"${'x'.repeat(1_100_000)}"}`],
  ['text/plain', '{"name":"x"}', 'text/plain'],
  ['form encoded', 'name=x', 'application/x-www-form-urlencoded'],
  ['multipart', '--b\r\nContent-Disposition: form-data; name="name"\r\n\r\nx\r\n--b--', 'multipart/form-data; boundary=b'],
  ['bogus charset', '{"name":"x"}', 'application/json; charset=ebcdic'],
  ['content type garbage', '{"name":"x"}', ';;;/;'],
  ['json suffix type', '{"name":"x"}', 'application/evil+json'],
  ['no content type', '{"name":"x"}', ''],
];

const BAD_HEADERS: Array<[string, Record<string, string>]> = [
  ['bearer without token', { authorization: 'Bearer' }],
  ['bearer with spaces only', { authorization: 'Bearer    ' }],
  ['basic scheme', { authorization: 'Basic dXNlcjpwYXNz' }],
  ['long token', { authorization: `Bearer qk_${'a'.repeat(8000)}` }],
  ['token with extra part', { authorization: 'Bearer qk_AAAAAAAAAAAA_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb_c' }],
  ['token and trailing word', { authorization: 'Bearer {token} extra' }],
  ['lowercase scheme', { authorization: 'bearer {token}' }],
  ['request id junk', { authorization: 'Bearer {token}', 'x-request-id': 'a b\tc' }],
  ['request id huge', { authorization: 'Bearer {token}', 'x-request-id': 'r'.repeat(5000) }],
  ['forwarded for junk', { authorization: 'Bearer {token}', 'x-forwarded-for': 'not-an-ip, ::ffff:999.1.1.1' }],
  ['accept nothing json', { authorization: 'Bearer {token}', accept: 'image/png' }],
  ['accept encoding junk', { authorization: 'Bearer {token}', 'accept-encoding': 'gzip;q=abc, *;q=-1' }],
  ['content length on GET', { authorization: 'Bearer {token}', 'content-type': 'application/json' }],
];

export function httpCases(): HttpCase[] {
  const cases: HttpCase[] = [];
  for (const [route, params] of Object.entries(LIST_ROUTES)) {
    for (const param of params) {
      for (const value of BAD_QUERY_VALUES) cases.push({ name: `${route} ${param}=${value.slice(0, 40)}`, method: 'GET', url: `${route}?${param}=${value}` });
      cases.push({ name: `${route} ${param} repeated`, method: 'GET', url: `${route}?${param}=1&${param}=2` });
      cases.push({ name: `${route} ${param} without value`, method: 'GET', url: `${route}?${param}` });
    }
    cases.push({ name: `${route} unknown parameter`, method: 'GET', url: `${route}?bogus=1` });
    cases.push({ name: `${route} page and cursor`, method: 'GET', url: `${route}?page=1&cursor=x` });
    cases.push({ name: `${route} semicolons`, method: 'GET', url: `${route}?limit=1;limit=2` });
    cases.push({ name: `${route} proto parameter`, method: 'GET', url: `${route}?__proto__=1&constructor=2` });
  }
  for (const route of GET_ROUTES.filter((r) => r.includes('{id}'))) {
    for (const id of BAD_IDS) cases.push({ name: `${route} id=${id.slice(0, 40)}`, method: 'GET', url: route.replace('{id}', id) });
  }
  for (const route of GET_ROUTES) {
    cases.push({ name: `${route} without key`, method: 'GET', url: route, auth: false });
    cases.push({ name: `${route} POST`, method: 'POST', url: route, body: '{}', headers: { 'content-type': 'application/json' } });
    cases.push({ name: `${route} DELETE`, method: 'DELETE', url: route });
    cases.push({ name: `${route} trailing slash`, method: 'GET', url: `${route}/` });
    cases.push({ name: `${route} double slash`, method: 'GET', url: route.replace('/v1/', '/v1//') });
    cases.push({ name: `${route} unknown parameter`, method: 'GET', url: `${route}?zzz=1` });
    for (const [name, headers] of BAD_HEADERS) cases.push({ name: `${route} ${name}`, method: 'GET', url: route, headers, auth: false });
  }
  for (const route of BODY_ROUTES) {
    for (const [name, body, type = 'application/json'] of BAD_BODIES) {
      cases.push({ name: `${route} body ${name}`, method: 'POST', url: route, body, headers: type ? { 'content-type': type } : {} });
    }
  }
  for (const [method, route] of RESPONDENT_BODY_ROUTES) {
    for (const [name, body] of RESPONDENT_BODIES) cases.push({ name: `${method} ${route} ${name}`, method, url: route, body, headers: { 'content-type': 'application/json' }, auth: false });
    cases.push({ name: `${method} ${route} over 1 MiB`, method, url: route, body: `{"answers":{"q":"${'x'.repeat(1_100_000)}"}}`, headers: { 'content-type': 'application/json' }, auth: false });
    cases.push({ name: `${method} ${route} unknown parameter`, method, url: `${route}?x=1`, body: '{"answers":{}}', headers: { 'content-type': 'application/json' }, auth: false });
  }
  for (const route of RESPONDENT_GET_ROUTES) {
    for (const id of BAD_IDS) cases.push({ name: `GET ${route} ${id.slice(0, 40)}`, method: 'GET', url: route.replace('{x}', id), auth: false });
  }
  for (const [name, body, type] of MULTIPART_BODIES) {
    cases.push({ name: `upload ${name}`, method: 'POST', url: `${UNKNOWN_INVITE}/files`, body, headers: { 'content-type': type }, auth: false });
  }
  for (const url of ['/', '/v1', '/v2/me', '/v1/%', '/v1/%zz', `/v1/${'a'.repeat(200)}`, '/v1/forms/%C0%AF', '/metrics?x=%00', '/healthz?%%', '/docs/%ZZ', '/v1/openapi.json?x=%00']) {
    cases.push({ name: `path ${url.slice(0, 40)}`, method: 'GET', url });
  }
  return cases;
}

function request(lines: string[], body = ''): string {
  return `${lines.join('\r\n')}\r\n\r\n${body}`;
}

export function rawCases(): RawCase[] {
  return [
    { name: 'not HTTP', bytes: 'GARBAGE\r\n\r\n' },
    { name: 'binary noise', bytes: '\u0000\u0001\u0002\u00ff\u00fe\r\n\r\n' },
    { name: 'TLS hello on plain port', bytes: '\u0016\u0003\u0001\u0002\u0000\u0001\u0000\u0001\u00fc\u0003\u0003' + '\r\n\r\n' },
    { name: 'unknown HTTP version', bytes: request(['GET /v1/me HTTP/9.9', 'Host: x']) },
    { name: 'bad method token', bytes: request(['G\u0001T /v1/me HTTP/1.1', 'Host: x']) },
    { name: 'NUL in request line', bytes: request(['GET /v1/me\u0000 HTTP/1.1', 'Host: x']) },
    { name: 'space in URL', bytes: request(['GET /v1/m e HTTP/1.1', 'Host: x']) },
    { name: 'header without colon', bytes: request(['GET /v1/me HTTP/1.1', 'Host: x', 'Nonsense']) },
    { name: 'header name with space', bytes: request(['GET /v1/me HTTP/1.1', 'Host: x', 'Bad Name: y']) },
    { name: 'NUL in header value', bytes: request(['GET /v1/me HTTP/1.1', 'Host: x', 'X-Thing: a\u0000b']) },
    { name: 'obsolete line folding', bytes: request(['GET /v1/me HTTP/1.1', 'Host: x', 'X-Thing: a', ' folded']) },
    { name: 'negative content length', bytes: request(['POST /v1/_probe/echo HTTP/1.1', 'Host: x', 'Content-Length: -1']) },
    { name: 'two content lengths', bytes: request(['POST /v1/_probe/echo HTTP/1.1', 'Host: x', 'Content-Length: 1', 'Content-Length: 2'], 'ab') },
    { name: 'content length and chunked', bytes: request(['POST /v1/_probe/echo HTTP/1.1', 'Host: x', 'Content-Length: 3', 'Transfer-Encoding: chunked'], '0\r\n\r\n') },
    { name: 'bad chunk size', bytes: request(['POST /v1/_probe/echo HTTP/1.1', 'Host: x', 'Transfer-Encoding: chunked', 'Content-Type: application/json'], 'zz\r\n{}\r\n0\r\n\r\n') },
    { name: 'unknown transfer coding', bytes: request(['POST /v1/_probe/echo HTTP/1.1', 'Host: x', 'Transfer-Encoding: gzip, rot13']) },
    { name: 'URL over 16 KiB', bytes: request([`GET /v1/forms?x=${'a'.repeat(17_000)} HTTP/1.1`, 'Host: x']) },
    { name: 'header over 16 KiB', bytes: request(['GET /v1/me HTTP/1.1', 'Host: x', `X-Big: ${'a'.repeat(17_000)}`]) },
    { name: 'many headers', bytes: request(['GET /v1/me HTTP/1.1', 'Host: x', ...Array.from({ length: 3000 }, (_, i) => `X-H${i}: v`)]) },
    { name: 'bare LF line ends', bytes: 'GET /v1/me HTTP/1.1\nHost: x\n\n' },
    { name: 'bad percent-encoding', bytes: request(['GET /v1/forms/%zz HTTP/1.1', 'Host: x', 'Authorization: Bearer {token}', 'Connection: close']) },
    { name: 'path segment over 100 characters', bytes: request([`GET /v1/forms/${'a'.repeat(150)} HTTP/1.1`, 'Host: x', 'Authorization: Bearer {token}', 'Connection: close']) },
    { name: 'two Authorization headers', bytes: request(['GET /v1/me HTTP/1.1', 'Host: x', 'Authorization: Bearer {token}', 'Authorization: Bearer qk_other', 'Connection: close']) },
    { name: 'non-ASCII in Authorization', bytes: request(['GET /v1/me HTTP/1.1', 'Host: x', 'Authorization: Bearer qk_\u00e9\u00ff', 'Connection: close']) },
    { name: 'absolute-form URL', bytes: request(['GET http://evil.example/v1/me HTTP/1.1', 'Host: x', 'Authorization: Bearer {token}', 'Connection: close']) },
    { name: 'asterisk-form URL', bytes: request(['OPTIONS * HTTP/1.1', 'Host: x', 'Connection: close']) },
    { name: 'CONNECT', bytes: request(['CONNECT 127.0.0.1:22 HTTP/1.1', 'Host: 127.0.0.1:22']) },
    { name: 'no Host on HTTP/1.1', bytes: request(['GET /v1/me HTTP/1.1', 'Connection: close']) },
    { name: 'HTTP/1.0 request', bytes: request(['GET /v1/me HTTP/1.0', 'Authorization: Bearer {token}']) },
    { name: 'raw invalid UTF-8 in body', bytes: request(['POST /v1/_probe/echo HTTP/1.1', 'Host: x', 'Content-Type: application/json', 'Content-Length: 12', 'Authorization: Bearer {token}', 'Connection: close'], '{"name":"\u00c3\u0028"}') },
    { name: 'docs static files above their folder', bytes: request(['GET /docs/static/../.. HTTP/1.1', 'Host: x', 'Connection: close']) },
    { name: 'docs static files, dot segments encoded', bytes: request(['GET /docs/static/%2e%2e/%2e%2e/package.json HTTP/1.1', 'Host: x', 'Connection: close']) },
    { name: 'websocket upgrade', bytes: request(['GET /v1/me HTTP/1.1', 'Host: x', 'Connection: Upgrade', 'Upgrade: websocket', 'Sec-WebSocket-Version: 13', 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==']) },
  ];
}
