import type { MaybePromise } from '../storage/storage.js';

/**
 * Calls `then` with the value: at once when it is already there (SQLite), after the promise
 * settles otherwise (PostgreSQL). A promise is returned only in the second case, so that Express
 * passes its rejection to the error handler; synchronous throws reach it anyway.
 */
export function whenReady<T>(value: MaybePromise<T>, then: (value: T) => void): void | Promise<void> {
  return value instanceof Promise ? value.then(then) : then(value);
}
