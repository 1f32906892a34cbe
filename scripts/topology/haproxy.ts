/**
 * HAProxy in front of the API processes. A process is taken out when /readyz stops answering 200
 * (it answers 503 from the moment SIGTERM arrives while it drains, SHUTDOWN_DRAIN_MS), and a request
 * whose connection failed is sent again to another process (`retry-on conn-failure` and
 * `option redispatch`): a process that dies loses only the requests it was already answering.
 * Those are not retried: a POST the dead process may have committed must not run twice.
 */
export function haproxyConfig(opts: { port: number; apiPorts: number[] }): string {
  const servers = opts.apiPorts.map((port, i) => `  server api${i + 1} 127.0.0.1:${port} check`);
  return [
    'global',
    '  maxconn 4096',
    '',
    'defaults',
    '  mode http',
    '  option forwardfor',
    '  timeout connect 2s',
    '  timeout client 60s',
    '  timeout server 60s',
    '  retries 3',
    '  retry-on conn-failure',
    '  option redispatch 1',
    '',
    'frontend quorum',
    `  bind 127.0.0.1:${opts.port}`,
    '  default_backend api',
    '',
    'backend api',
    '  balance roundrobin',
    '  option httpchk GET /readyz',
    '  http-check expect status 200',
    // Checked every 500 ms, out after 2 failures: a draining process leaves within a second.
    '  default-server inter 500ms fall 2 rise 2',
    ...servers,
    '',
  ].join('\n');
}
