/** The JSON error body every 4xx/5xx of the reference server uses. */
export const errorBody = (code: number, message: string) => ({ error: { code, message } });

/** An error a route answers with its own status and message (4xx); anything else is a generic 500. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}
