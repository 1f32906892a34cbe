import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ConfigError } from './config-error.js';

/** The environment, read and validated in one place. Documented in the README's configuration table. */
export interface Config {
  port: number;
  host: string;
  databaseUrl: string | null;
  /** A read replica for heavy reads; when null the main database serves them. */
  readDatabaseUrl: string | null;
  dataDir: string;
  publicApiUrl: string;
  publicFormUrl: string;
  /** Where people open the management panel; its origin is the one state-changing panel requests must come from. */
  publicPanelUrl: string;
  secretKey: string;
  smtpUrl: string | null;
  /** Default e-mail sender ("Name <addr>"); a company's mailFrom setting overrides it. */
  mailFrom: string;
  /** Base URL of the WhatsApp Cloud (Graph) API. */
  whatsappGraphUrl: string;
  /** Verifies provider callbacks: the WhatsApp app secret and verify token, the generic e-mail receipts' secret. */
  whatsappAppSecret: string | null;
  whatsappVerifyToken: string | null;
  callbackSecret: string | null;
  /** NODE_ENV=production: development pages (/dev/mail) are off; otherwise they answer loopback clients only. */
  production: boolean;
  redisUrl: string | null;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Lifts the outbound target guard (webhooks, WhatsApp) so loopback and private targets are reached: development only. */
  webhookAllowPrivateTargets: boolean;
  /** Whose X-Forwarded-For to believe for the client address (Fastify's trustProxy). */
  trustProxy: boolean | number | string;
  /** Bearer token that opens /metrics to non-loopback clients; null keeps it loopback-only. */
  metricsToken: string | null;
  /** Most responses one statistics request reads when the rollups cannot answer its cut. */
  statisticsScanCeiling: number;
  /** Hours a rendered public-link page's submission token is valid; its unclaimed uploads are pruned after it. */
  publicLinkTokenHours: number;
  /** Respondents' file uploads: hourly caps per client address and per form, and each company's storage quota. */
  uploadLimits: UploadLimits;
  /** After SIGTERM, how long /readyz answers 503 before the server stops taking requests (a balancer's time to notice). */
  shutdownDrainMs: number;
}

export interface UploadLimits {
  filesPerAddressPerHour: number;
  bytesPerAddressPerHour: number;
  filesPerFormPerHour: number;
  bytesPerFormPerHour: number;
  bytesPerCompany: number;
}

const MIB = 1024 * 1024;

export { ConfigError };

type Env = Record<string, string | undefined>;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/**
 * A variable's rule: the pattern its whole value must match, and the one line that names it when
 * refused. Plain patterns, not a schema library: every command loads the config, and a schema
 * checker is a tenth of a command's start-up (bench/README.md, cli-start).
 */
interface Rule {
  shape: RegExp;
  refusal: (raw: string) => string;
}

const positiveWholeNumber = (name: string): Rule => ({
  shape: /^[1-9]\d{0,8}$/,
  refusal: (raw) => `${name} must be a positive whole number, got "${raw}"`,
});

/** Every validated variable's rule, declared once (URLs are checked by readUrl: a URL parser, then their protocols). */
const RULES = {
  PORT: {
    shape: /^0*(6553[0-5]|655[0-2]\d|65[0-4]\d{2}|6[0-4]\d{3}|[1-5]\d{4}|\d{1,4})$/,
    refusal: (raw) => `PORT must be a port number (0-65535), got "${raw}"`,
  },
  LOG_LEVEL: {
    shape: new RegExp(`^(${LOG_LEVELS.join('|')})$`),
    refusal: (raw) => `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${raw}"`,
  },
  WEBHOOK_ALLOW_PRIVATE_TARGETS: {
    shape: /^(|true|false|1|0|yes|no)$/,
    refusal: (raw) => `WEBHOOK_ALLOW_PRIVATE_TARGETS must be true or false, got "${raw}"`,
  },
  TRUST_PROXY: {
    shape: /^(|true|false|\d{1,2}|[0-9a-fA-F.:/]+(\s*,\s*[0-9a-fA-F.:/]+)*)$/,
    refusal: (raw) => `TRUST_PROXY must be true, false, a hop count or a comma-separated list of addresses, got "${raw}"`,
  },
  SECRET_KEY: { shape: /^[\s\S]{32,}$/, refusal: () => 'SECRET_KEY must be at least 32 characters' },
  METRICS_TOKEN: { shape: /^\S{16,}$/, refusal: () => 'METRICS_TOKEN must be at least 16 characters without spaces' },
  STATISTICS_SCAN_CEILING: positiveWholeNumber('STATISTICS_SCAN_CEILING'),
  PUBLIC_LINK_TOKEN_HOURS: positiveWholeNumber('PUBLIC_LINK_TOKEN_HOURS'),
  UPLOAD_FILES_PER_ADDRESS_HOUR: positiveWholeNumber('UPLOAD_FILES_PER_ADDRESS_HOUR'),
  UPLOAD_MB_PER_ADDRESS_HOUR: positiveWholeNumber('UPLOAD_MB_PER_ADDRESS_HOUR'),
  UPLOAD_FILES_PER_FORM_HOUR: positiveWholeNumber('UPLOAD_FILES_PER_FORM_HOUR'),
  UPLOAD_MB_PER_FORM_HOUR: positiveWholeNumber('UPLOAD_MB_PER_FORM_HOUR'),
  UPLOAD_QUOTA_MB_PER_COMPANY: positiveWholeNumber('UPLOAD_QUOTA_MB_PER_COMPANY'),
  SHUTDOWN_DRAIN_MS: {
    shape: /^\d{1,6}$/,
    refusal: (raw) => `SHUTDOWN_DRAIN_MS must be a whole number of milliseconds (0-999999), got "${raw}"`,
  },
} satisfies Record<string, Rule>;

/** `value` when it has the shape of `name`'s rule; ConfigError naming the variable (with `shown`, as given) otherwise. */
function checked(name: keyof typeof RULES, value: string, shown = value): string {
  const rule: Rule = RULES[name];
  if (!rule.shape.test(value)) throw new ConfigError(rule.refusal(shown));
  return value;
}

function readUrl(env: Env, name: string, protocols: string[], fallback: string | null): string | null {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be a URL, got "${redact(raw)}"`);
  }
  if (!protocols.includes(url.protocol)) {
    throw new ConfigError(`${name} must use ${protocols.join(' or ')}, got "${url.protocol}"`);
  }
  return raw.replace(/\/+$/, '');
}

/** Never echo credentials of a connection string in an error line. */
function redact(raw: string): string {
  return raw.replace(/\/\/[^@/]*@/, '//***@');
}

function readBoolean(env: Env, name: 'WEBHOOK_ALLOW_PRIVATE_TARGETS'): boolean {
  const raw = checked(name, (env[name] ?? '').toLowerCase(), env[name]);
  return raw === 'true' || raw === '1' || raw === 'yes';
}

/**
 * TRUST_PROXY: unset or false (the peer is the client), true (any proxy), a hop count, or a
 * comma-separated list of proxy addresses/CIDRs. The client address keys the failed-login limit,
 * so trusting forwarded headers from anyone would let a caller pick whose address it burns.
 */
function readTrustProxy(env: Env): Config['trustProxy'] {
  const raw = checked('TRUST_PROXY', (env.TRUST_PROXY ?? '').trim());
  if (raw === '' || raw === 'false') return false;
  if (raw === 'true') return true;
  return /^\d{1,2}$/.test(raw) ? Number(raw) : raw;
}

function readPositiveInteger(env: Env, name: keyof typeof RULES, fallback: number): number {
  const raw = env[name];
  return raw === undefined || raw === '' ? fallback : Number(checked(name, raw));
}

/** SECRET_KEY signs cursors; when unset one is generated once and kept in the data directory. */
function readSecretKey(env: Env, dataDir: string): string {
  const raw = env.SECRET_KEY;
  if (raw !== undefined && raw !== '') return checked('SECRET_KEY', raw);
  const file = join(dataDir, 'secret-key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const generated = randomBytes(32).toString('base64url');
  try {
    writeFileSync(file, `${generated}\n`, { mode: 0o600, flag: 'wx' });
    return generated;
  } catch (err) {
    // Another process created it first: everyone must share that one.
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return readFileSync(file, 'utf8').trim();
    throw err;
  }
}

function readMetricsToken(env: Env): string | null {
  const raw = env.METRICS_TOKEN;
  return raw === undefined || raw === '' ? null : checked('METRICS_TOKEN', raw);
}

export function loadConfig(env: Env = process.env): Config {
  const port = Number(checked('PORT', env.PORT ?? '3000'));
  const host = env.HOST || '0.0.0.0';
  const dataDir = resolve(env.QUORUM_DATA_DIR || './.quorum');
  const origin = `http://localhost:${port}`;
  return {
    port,
    host,
    databaseUrl: readUrl(env, 'DATABASE_URL', ['postgres:', 'postgresql:'], null),
    readDatabaseUrl: readUrl(env, 'READ_DATABASE_URL', ['postgres:', 'postgresql:'], null),
    dataDir,
    publicApiUrl: readUrl(env, 'PUBLIC_API_URL', ['http:', 'https:'], `${origin}/v1`)!,
    publicFormUrl: readUrl(env, 'PUBLIC_FORM_URL', ['http:', 'https:'], `${origin}/i`)!,
    publicPanelUrl: readUrl(env, 'PUBLIC_PANEL_URL', ['http:', 'https:'], `${origin}/panel`)!,
    secretKey: readSecretKey(env, dataDir),
    smtpUrl: readUrl(env, 'SMTP_URL', ['smtp:', 'smtps:'], null),
    mailFrom: env.MAIL_FROM || 'Quorum <no-reply@localhost>',
    whatsappGraphUrl: readUrl(env, 'WHATSAPP_GRAPH_URL', ['http:', 'https:'], 'https://graph.facebook.com/v21.0')!,
    whatsappAppSecret: env.WHATSAPP_APP_SECRET || null,
    whatsappVerifyToken: env.WHATSAPP_VERIFY_TOKEN || null,
    callbackSecret: env.CALLBACK_SECRET || null,
    production: env.NODE_ENV === 'production',
    redisUrl: readUrl(env, 'REDIS_URL', ['redis:', 'rediss:'], null),
    logLevel: checked('LOG_LEVEL', env.LOG_LEVEL ?? 'info') as Config['logLevel'],
    webhookAllowPrivateTargets: readBoolean(env, 'WEBHOOK_ALLOW_PRIVATE_TARGETS'),
    trustProxy: readTrustProxy(env),
    metricsToken: readMetricsToken(env),
    statisticsScanCeiling: readPositiveInteger(env, 'STATISTICS_SCAN_CEILING', 200_000),
    publicLinkTokenHours: readPositiveInteger(env, 'PUBLIC_LINK_TOKEN_HOURS', 12),
    uploadLimits: {
      filesPerAddressPerHour: readPositiveInteger(env, 'UPLOAD_FILES_PER_ADDRESS_HOUR', 20),
      bytesPerAddressPerHour: readPositiveInteger(env, 'UPLOAD_MB_PER_ADDRESS_HOUR', 25) * MIB,
      filesPerFormPerHour: readPositiveInteger(env, 'UPLOAD_FILES_PER_FORM_HOUR', 500),
      bytesPerFormPerHour: readPositiveInteger(env, 'UPLOAD_MB_PER_FORM_HOUR', 1024) * MIB,
      bytesPerCompany: readPositiveInteger(env, 'UPLOAD_QUOTA_MB_PER_COMPANY', 10_240) * MIB,
    },
    shutdownDrainMs: Number(checked('SHUTDOWN_DRAIN_MS', env.SHUTDOWN_DRAIN_MS || '0')),
  };
}
