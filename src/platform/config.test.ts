import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

const dataDir = () => mkdtempSync(join(tmpdir(), 'quorum-config-'));

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const dir = dataDir();
    const config = loadConfig({ QUORUM_DATA_DIR: dir });
    expect(config).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      databaseUrl: null,
      readDatabaseUrl: null,
      dataDir: dir,
      publicApiUrl: 'http://localhost:3000/v1',
      publicFormUrl: 'http://localhost:3000/i',
      smtpUrl: null,
      redisUrl: null,
      logLevel: 'info',
      webhookAllowPrivateTargets: false,
      trustProxy: false,
      shutdownDrainMs: 0,
    });
  });

  it.each([
    ['true', true],
    ['2', 2],
    ['10.0.0.1, 10.0.0.0/8', '10.0.0.1, 10.0.0.0/8'],
  ])('reads TRUST_PROXY=%s', (raw, expected) => {
    expect(loadConfig({ QUORUM_DATA_DIR: dataDir(), TRUST_PROXY: raw }).trustProxy).toEqual(expected);
  });

  it('generates SECRET_KEY once and keeps it in the data directory', () => {
    const dir = dataDir();
    const first = loadConfig({ QUORUM_DATA_DIR: dir }).secretKey;
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(loadConfig({ QUORUM_DATA_DIR: dir }).secretKey).toBe(first);
    expect(readFileSync(join(dir, 'secret-key'), 'utf8').trim()).toBe(first);
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://x'],
    ['DATABASE_URL', 'not a url'],
    ['REDIS_URL', 'http://localhost'],
    ['SMTP_URL', 'ftp://x'],
    ['PUBLIC_API_URL', 'localhost:3000'],
    ['LOG_LEVEL', 'loud'],
    ['WEBHOOK_ALLOW_PRIVATE_TARGETS', 'maybe'],
    ['SECRET_KEY', 'short'],
    ['TRUST_PROXY', 'everyone'],
    ['METRICS_TOKEN', 'short'],
  ])('refuses %s=%s with a message naming the variable', (name, value) => {
    const attempt = () => loadConfig({ QUORUM_DATA_DIR: dataDir(), [name]: value });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(new RegExp(`^${name} `));
  });

  it.each([
    ['PORT', '', 'PORT must be a port number (0-65535), got ""'],
    ['PORT', '65536', 'PORT must be a port number (0-65535), got "65536"'],
    ['LOG_LEVEL', 'loud', 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "loud"'],
    ['WEBHOOK_ALLOW_PRIVATE_TARGETS', 'Maybe', 'WEBHOOK_ALLOW_PRIVATE_TARGETS must be true or false, got "Maybe"'],
    ['TRUST_PROXY', ' everyone ', 'TRUST_PROXY must be true, false, a hop count or a comma-separated list of addresses, got "everyone"'],
    ['METRICS_TOKEN', 'sixteen chars ok', 'METRICS_TOKEN must be at least 16 characters without spaces'],
    ['STATISTICS_SCAN_CEILING', '0', 'STATISTICS_SCAN_CEILING must be a positive whole number, got "0"'],
    ['UPLOAD_MB_PER_FORM_HOUR', '1e3', 'UPLOAD_MB_PER_FORM_HOUR must be a positive whole number, got "1e3"'],
    ['SHUTDOWN_DRAIN_MS', '2s', 'SHUTDOWN_DRAIN_MS must be a whole number of milliseconds (0-999999), got "2s"'],
  ])('refuses %s=%j in one line: %s', (name, value, message) => {
    expect(() => loadConfig({ QUORUM_DATA_DIR: dataDir(), [name]: value })).toThrow(new ConfigError(message));
  });

  it('reads the values the rules accept', () => {
    const config = loadConfig({
      QUORUM_DATA_DIR: dataDir(), PORT: '00080', LOG_LEVEL: 'silent', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'YES', TRUST_PROXY: ' 10.0.0.0/8, ::1 ',
      METRICS_TOKEN: 'x'.repeat(16), SECRET_KEY: 'k'.repeat(32), UPLOAD_MB_PER_FORM_HOUR: '2', SHUTDOWN_DRAIN_MS: '2000',
    });
    expect(config).toMatchObject({ shutdownDrainMs: 2000, port: 80, logLevel: 'silent', webhookAllowPrivateTargets: true, trustProxy: '10.0.0.0/8, ::1', metricsToken: 'x'.repeat(16), secretKey: 'k'.repeat(32) });
    expect(config.uploadLimits.bytesPerFormPerHour).toBe(2 * 1024 * 1024);
    expect(loadConfig({ QUORUM_DATA_DIR: dataDir(), TRUST_PROXY: '2' }).trustProxy).toBe(2);
  });

  it('never echoes the password of a bad connection string', () => {
    expect(() => loadConfig({ QUORUM_DATA_DIR: dataDir(), DATABASE_URL: 'mysql://user:hunter2@db/x' })).not.toThrow(/hunter2/);
  });
});
