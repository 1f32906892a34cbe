import { createRequire } from 'node:module';
import { pino, type Logger, type LoggerOptions, type DestinationStream } from 'pino';
import { serializeRequest } from './log-redaction.js';

export type { Logger };

/** What the logger reads of the configuration (the platform's Config fits it; lib knows no platform). */
interface LogSettings {
  logLevel: string;
  production: boolean;
}

/** Never logged: a key travels in the authorization header, a respondent session in the cookie. */
export const REDACTED_PATHS = ['req.headers.authorization', 'req.headers.cookie'];

/** The production logger options, in one place: the server uses them and the logging test proves them. */
export function loggerOptions(config: Pick<LogSettings, 'logLevel'>): LoggerOptions {
  return {
    level: config.logLevel,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: { req: serializeRequest, res: (res: { statusCode?: number }) => ({ statusCode: res.statusCode }), err: pino.stdSerializers.err },
  };
}

/** A person at a terminal reads lines; pipes, files, collectors and production get JSON lines. */
export function wantsPrettyLogs(config: Pick<LogSettings, 'production'>, stdout: { isTTY?: boolean } = process.stdout): boolean {
  return Boolean(stdout.isTTY) && !config.production;
}

/** pino-pretty is loaded only here, so JSON logging (production, tests) never pays for it. */
function prettyStream(destination: DestinationStream | undefined): DestinationStream {
  const pretty = createRequire(import.meta.url)('pino-pretty') as (options: Record<string, unknown>) => DestinationStream;
  return pretty({
    destination: destination ?? 1,
    colorize: !destination,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,req,res,responseTime',
    singleLine: true,
    // A request reads as "GET /v1/me 200 3.2 ms request completed (reqId)" on one line.
    messageFormat: '{if req.method}{req.method} {req.url} {res.statusCode} {responseTime} ms {end}{msg}',
  });
}

export function createLogger(config: Pick<LogSettings, 'logLevel'>, destination?: DestinationStream, options: { pretty?: boolean } = {}): Logger {
  const stream = options.pretty ? prettyStream(destination) : destination;
  return stream ? pino(loggerOptions(config), stream) : pino(loggerOptions(config));
}
