import { pino, type Logger, type LoggerOptions, type DestinationStream } from 'pino';
import type { Config } from '../config.js';
import { serializeRequest } from './log-redaction.js';

export type { Logger };

/** Never logged: a key travels in the authorization header, a respondent session in the cookie. */
export const REDACTED_PATHS = ['req.headers.authorization', 'req.headers.cookie'];

/** The production logger options, in one place: the server uses them and the logging test proves them. */
export function loggerOptions(config: Pick<Config, 'logLevel'>): LoggerOptions {
  return {
    level: config.logLevel,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: { req: serializeRequest, res: (res: { statusCode?: number }) => ({ statusCode: res.statusCode }), err: pino.stdSerializers.err },
  };
}

export function createLogger(config: Pick<Config, 'logLevel'>, destination?: DestinationStream): Logger {
  return destination ? pino(loggerOptions(config), destination) : pino(loggerOptions(config));
}
