import type { components } from './schema.js';

type Envelope = components['schemas']['ErrorEnvelope'];

/** A refusal of the API: `code` is the contract (never compare `message`). */
export class QuorumError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: unknown,
    readonly requestId: string | null,
  ) {
    super(message);
    this.name = 'QuorumError';
  }

  /** The error of an answer whose body is the error envelope (or something else, for a proxy's page). */
  static from(response: Response, body: unknown): QuorumError {
    const error = (body as Partial<Envelope> | undefined)?.error;
    const requestId = response.headers.get('x-request-id');
    if (error && typeof error.code === 'string') return new QuorumError(response.status, error.code, error.message, error.details, requestId);
    return new QuorumError(response.status, response.status >= 500 ? 'INTERNAL_ERROR' : 'UNKNOWN', `HTTP ${response.status}`, body ?? null, requestId);
  }
}
