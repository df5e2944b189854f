import type { QuotaCounter } from '../../storage/quotas.js';

/**
 * One request taken from a key's quota, or refused. A state returned at once is the key's own,
 * reused by its next take: read it before anything else runs. One that comes through a promise is a
 * copy of its own.
 */
export interface QuotaState {
  allowed: boolean;
  /** Requests left to the key in this window, as far as this process knows. */
  remaining: number;
  /** Milliseconds until the window ends. */
  msBeforeReset: number;
}

/** This process's share of one key's quota in the current window. */
interface Lease {
  /** Requests this process may still serve for the key without asking the store. */
  tokens: number;
  /** What the store had left for everyone else when this process last took from it. */
  leftInStore: number;
  windowEnds: number;
  /** A renewal under way, which other requests for the key wait for rather than start their own. */
  renewal: Promise<void> | undefined;
  state: QuotaState;
}

/**
 * A quota of `quota` requests per key and window, counted by a store (shared by every process:
 * PostgreSQL's table; or this process's memory), taken from it `block` requests at a time. Each take
 * from the store is one atomic add of `block` to the key's count; what it grants (all of the block,
 * the part the quota still had, or nothing) this process serves without asking again. So the
 * processes together never serve more than the quota, a request usually costs no round trip, and a
 * key that is used up costs none until its window ends. The price: a share taken and not yet used by
 * one process is not available to the others, at most `block - 1` requests per process.
 */
export class LeasedQuota {
  private readonly leases = new Map<string, Lease>();

  constructor(
    private readonly store: QuotaCounter,
    private readonly quota: number,
    private readonly block: number,
    private readonly now: () => number = Date.now,
  ) {}

  take(key: string): QuotaState | Promise<QuotaState> {
    const lease = this.leases.get(key);
    if (lease && lease.renewal === undefined) {
      const now = this.now();
      if (now < lease.windowEnds) {
        const { state } = lease;
        state.msBeforeReset = lease.windowEnds - now;
        if (lease.tokens > 0) {
          lease.tokens -= 1;
          state.allowed = true;
          state.remaining = lease.leftInStore + lease.tokens;
          return state;
        }
        if (lease.leftInStore === 0) {
          state.allowed = false;
          state.remaining = 0;
          return state;
        }
      }
    }
    return this.renewThenTake(key, lease);
  }

  private async renewThenTake(key: string, known: Lease | undefined): Promise<QuotaState> {
    let lease = known;
    if (!lease) {
      lease = { tokens: 0, leftInStore: 0, windowEnds: 0, renewal: undefined, state: { allowed: false, remaining: 0, msBeforeReset: 0 } };
      this.leases.set(key, lease);
    }
    if (lease.renewal) await lease.renewal;
    else {
      lease.renewal = this.renew(key, lease);
      try {
        await lease.renewal;
      } finally {
        lease.renewal = undefined;
      }
    }
    // A copy: the caller reads it only after other requests' takes have run.
    const taken = this.take(key);
    return taken instanceof Promise ? taken : { ...taken };
  }

  private async renew(key: string, lease: Lease): Promise<void> {
    // Past the quota too, the count says how far past, and when the window ends.
    const { counted, msBeforeReset } = await this.store.add(key, this.block);
    const countedBefore = counted - this.block;
    lease.tokens = Math.max(0, Math.min(this.block, this.quota - countedBefore));
    lease.leftInStore = Math.max(0, this.quota - counted);
    // At least a millisecond: a window that ends now is taken again on the next request.
    lease.windowEnds = this.now() + Math.max(1, msBeforeReset);
    if (this.leases.size > 10_000) this.forgetEnded();
  }

  /** Leases of windows that have ended, so that keys seen once do not stay for ever. */
  private forgetEnded(): void {
    const now = this.now();
    for (const [key, lease] of this.leases) if (lease.windowEnds <= now && lease.renewal === undefined) this.leases.delete(key);
  }
}

/**
 * How many requests of a key's quota a process takes from the store at once: 1 % of the quota (at
 * least one), so at most 1 % per process can sit unused in one process while another refuses.
 */
export function leaseBlock(quota: number): number {
  return Math.max(1, Math.floor(quota / 100));
}
