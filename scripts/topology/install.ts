import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';

/** Installs Debian packages the way .ci/run installs Chromium: only when missing, and only as root. */
export function aptInstall(packages: string[], why: string): void {
  if (process.getuid?.() !== 0) {
    throw new Error(`${why} needs ${packages.join(' ')}: install it (apt-get install -y --no-install-recommends ${packages.join(' ')}) or run as root`);
  }
  process.stderr.write(`[topology] installing ${packages.join(' ')} (${why})\n`);
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
  execFileSync('apt-get', ['install', '-y', '--no-install-recommends', ...packages], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
}

/** HAProxy from Debian's package. */
export function haproxyBinary(): string {
  if (!existsSync('/usr/sbin/haproxy')) aptInstall(['haproxy'], 'the load balancer');
  return '/usr/sbin/haproxy';
}

/** redis-server from Debian's package (the topology runs its own, on its own port). */
export function redisBinary(): string {
  if (!existsSync('/usr/bin/redis-server')) aptInstall(['redis-server'], 'the shared rate limits');
  return '/usr/bin/redis-server';
}

/**
 * Debian's PostgreSQL server binaries, newest major first. The embedded package has no
 * pg_basebackup, and a standby must run the primary's major version, so both come from here.
 */
export function postgresBinDir(): string {
  const found = () =>
    ['18', '17', '16', '15', '14', '13'].map((major) => `/usr/lib/postgresql/${major}/bin`).find((dir) => existsSync(`${dir}/pg_basebackup`) && existsSync(`${dir}/postgres`));
  const dir = found();
  if (dir) return dir;
  // Debian would create and start a "main" cluster on 5432 on install: the topology runs its own.
  mkdirSync('/etc/postgresql-common', { recursive: true });
  if (!existsSync('/etc/postgresql-common/createcluster.conf')) writeFileSync('/etc/postgresql-common/createcluster.conf', 'create_main_cluster = false\n');
  aptInstall(['postgresql'], 'the primary and its streaming replica');
  const installed = found();
  if (!installed) throw new Error('apt-get installed postgresql but no /usr/lib/postgresql/*/bin/pg_basebackup appeared');
  return installed;
}
