import type { ErrorAction, ErrorObject } from './types';

export const DEFAULT_ERROR_TITLE = 'Error';
export const DEFAULT_ERROR_MESSAGE = 'An unknown error occurred';

/**
 * The one error type every API call rejects with. It carries the spec's
 * error object (spec 1 §3) with its defaults filled in, and keeps what the
 * server actually sent in `server` so a caller can tell a server message
 * from a default.
 */
export class ApiError extends Error implements ErrorObject {
  readonly errorTitle: string;
  readonly errorMessage: string;
  readonly errorCode: string | number | null;
  readonly errorCodeDesc: string | null;
  readonly httpStatus: number;
  readonly data: unknown;
  readonly requestId: string | null;
  readonly actions: ErrorAction[];
  /** The error fields the server sent; null for network and client-side failures. */
  readonly server: Partial<ErrorObject> | null;

  constructor(fields: Partial<ErrorObject> & { httpStatus: number }, server: Partial<ErrorObject> | null = null) {
    const errorMessage = nonEmpty(fields.errorMessage) ?? DEFAULT_ERROR_MESSAGE;
    super(errorMessage);
    this.name = 'ApiError';
    this.errorTitle = nonEmpty(fields.errorTitle) ?? DEFAULT_ERROR_TITLE;
    this.errorMessage = errorMessage;
    this.errorCode = fields.errorCode ?? null;
    this.errorCodeDesc = fields.errorCodeDesc ?? null;
    this.httpStatus = fields.httpStatus;
    this.data = fields.data ?? null;
    this.requestId = fields.requestId ?? null;
    this.actions = fields.actions ?? [];
    this.server = server;
  }

  /** Compares the error code whether the server sent it as a number or a string. */
  hasCode(code: string | number): boolean {
    return this.errorCode !== null && String(this.errorCode) === String(code);
  }

  /** The server's own message, or undefined when it sent none. */
  get serverMessage(): string | undefined {
    return nonEmpty(this.server?.errorMessage);
  }
}

function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/** Builds an ApiError from a failed response's status and (possibly non-JSON) body text. */
export function errorFromResponse(status: number, bodyText: string, requestIdHeader?: string | null): ApiError {
  let server: Partial<ErrorObject> | null = null;
  if (bodyText) {
    try {
      const parsed: unknown = JSON.parse(bodyText);
      if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
        server = parsed as Partial<ErrorObject>;
      }
    } catch {
      // Not JSON (a proxy page, plain text): fall back to the defaults.
    }
  }
  return new ApiError(
    {
      ...server,
      httpStatus: typeof server?.httpStatus === 'number' && server.httpStatus > 0 ? server.httpStatus : status,
      requestId: server?.requestId ?? requestIdHeader ?? null,
    },
    server,
  );
}

/** Any thrown value as an ApiError (network failures become status 0). */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  return new ApiError({ httpStatus: 0, errorCodeDesc: 'NETWORK_ERROR' });
}

/** The message of a failed save: a content-rule failure names its first rule (spec 2 §8). */
export function saveFailureMessage(error: unknown): string {
  const apiError = toApiError(error);
  if (apiError.hasCode('CONTENT_VALIDATION_FAILED') || apiError.errorCodeDesc === 'CONTENT_VALIDATION_FAILED') {
    const rules = (apiError.data as { ruleErrors?: { message?: string }[] } | null)?.ruleErrors;
    const first = rules?.find((rule) => rule.message)?.message;
    if (first) return first;
  }
  return apiError.errorMessage;
}
