import { StorageUnavailableError } from '../storage.js';

// SQLSTATE classes and Node socket errors that mean "the database is not reachable right now".
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300', '53400']);
const UNAVAILABLE_SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'EAI_AGAIN',
  'ENETUNREACH',
]);
const UNAVAILABLE_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|connection is closed|Connection refused/i;

/** Whether an error of pg or of its socket means that the database cannot be reached (a 503), rather than a failed statement. */
export function isUnavailable(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (code.startsWith('08') || UNAVAILABLE_SQLSTATES.has(code) || UNAVAILABLE_SOCKET_CODES.has(code)))
    return true;
  return typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message);
}

/** `work`, with an unreachable database surfacing as StorageUnavailableError (503) and anything else as it is. */
export async function guarded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUnavailable(error)) throw new StorageUnavailableError({ cause: error });
    throw error;
  }
}
