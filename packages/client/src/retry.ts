/** How a call that is safe to repeat (see isSafeToRepeat) is retried. */
export interface RetryOptions {
  /** Tries in all, the first included (1 sends once). Default 5. */
  attempts?: number;
  /** The first retry waits up to this long, each further one up to twice as long as the one before. Default 100. */
  baseDelayMs?: number;
  /** No wait is longer, whatever `Retry-After` says. Default 5000. */
  maxDelayMs?: number;
}

export const DEFAULT_RETRIES: Required<RetryOptions> = { attempts: 5, baseDelayMs: 100, maxDelayMs: 5_000 };

/** fetch as openapi-fetch calls it. */
export type Fetch = (request: Request, init?: RequestInit) => Promise<Response>;

/** 409: the first request with the key is still in flight; 503: the service asks to come back later. */
const RETRIED_STATUSES = new Set([409, 503]);

/** The options in full, checked: a typo must not quietly turn retries off or make them endless. */
export function retryPolicy(options: RetryOptions | false | undefined): Required<RetryOptions> {
  const policy = options === false ? { ...DEFAULT_RETRIES, attempts: 1 } : { ...DEFAULT_RETRIES, ...options };
  if (!Number.isInteger(policy.attempts) || policy.attempts < 1) throw new TypeError('retries.attempts must be an integer of at least 1');
  for (const name of ['baseDelayMs', 'maxDelayMs'] as const) {
    if (!(policy[name] >= 0)) throw new TypeError(`retries.${name} must be a number of at least 0`);
  }
  return policy;
}

/**
 * The wait before retry number `retry` (0 for the first): capped exponential backoff with full jitter,
 * a random time up to min(maxDelayMs, baseDelayMs × 2^retry), so that clients that failed together do
 * not come back together; but at least the response's `Retry-After` (seconds), within maxDelayMs.
 */
export function retryDelay(retry: number, policy: Required<RetryOptions>, response?: Response, random: () => number = Math.random): number {
  const jitter = random() * Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
  const retryAfter = Number(response?.headers.get('Retry-After') ?? '');
  const asked = Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : 0;
  return Math.min(policy.maxDelayMs, Math.max(jitter, asked));
}

function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Whether the server acts on the request at most once however often it is sent: it carries an
 * `Idempotency-Key` (createPet), or an `If-Match` with tags (a conditional updatePet or deletePet:
 * once it is applied, the pet's ETag changes and a repeat gets 412 or 404). `If-Match: *` matches
 * the pet whatever its state, and a write without If-Match always applies: a repeat of either could
 * undo a change another client made in between, so neither is safe.
 */
export function isSafeToRepeat(request: Request): boolean {
  if (request.headers.has('Idempotency-Key')) return true;
  const ifMatch = request.headers.get('If-Match');
  return ifMatch !== null && ifMatch.trim() !== '*';
}

/**
 * fetch that sends a request that is safe to repeat (isSafeToRepeat) again, unchanged, when no
 * response arrived (connection refused or reset: the server may or may not have acted on it) or the
 * answer was 409 or 503. Other requests go out once. An abort stops the retries at once.
 */
export function retryingFetch(fetch: Fetch, policy: Required<RetryOptions>): Fetch {
  return async (request, init) => {
    if (policy.attempts <= 1 || !isSafeToRepeat(request)) return fetch(request, init);
    // A body can be read once: every attempt sends a copy of the untouched original.
    const original = request.clone();
    for (let attempt = 1; ; attempt += 1) {
      const last = attempt >= policy.attempts;
      let response: Response;
      try {
        response = await fetch(attempt === 1 ? request : original.clone(), init);
      } catch (error) {
        if (last || request.signal.aborted) throw error;
        await wait(retryDelay(attempt - 1, policy), request.signal);
        continue;
      }
      if (last || !RETRIED_STATUSES.has(response.status)) return response;
      await response.body?.cancel();
      await wait(retryDelay(attempt - 1, policy, response), request.signal);
    }
  };
}
