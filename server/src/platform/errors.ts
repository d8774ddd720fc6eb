/**
 * The one error type of the server: an HTTP status, a stable code and a message a person
 * understands. The error handler in app.ts turns it into `{ error, message, details }`.
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string, details?: unknown) =>
  new AppError(400, 'bad_request', message, details);
export const unauthorized = (message = 'You need to log in to do this.') =>
  new AppError(401, 'unauthorized', message);
export const forbidden = (message = 'You are not allowed to do this.') => new AppError(403, 'forbidden', message);
export const notFound = (message: string) => new AppError(404, 'not_found', message);
export const conflict = (message: string, details?: unknown) => new AppError(409, 'conflict', message, details);
export const tooLarge = (message: string) => new AppError(413, 'too_large', message);
export const unsupportedMediaType = (message: string) => new AppError(415, 'unsupported_media_type', message);
export const tooManyRequests = (message: string) => new AppError(429, 'too_many_requests', message);
