import { IncomingMessage, ServerResponse } from 'node:http';
import type { Express } from 'express';

/** The properties the constructors below are sized for (see expressMessages). */
interface Sized {
  [slot: `s${number}`]: undefined;
}

/** Never true: the assignments it guards size the constructors' objects without running. */
const sizing = (args: unknown[]): boolean => args.length < 0;

/**
 * Relies on: Express making each request and response it handles an instance of `app.request` and
 * `app.response` by setting their prototypes as they arrive (app.handle, Object.setPrototypeOf), a
 * no-op when they already have them; and on those objects inheriting from node:http's
 * IncomingMessage and ServerResponse.
 *
 * Why: an object whose prototype changes after it was built takes a new hidden class, which leaves
 * every later property access on req and res slow in V8. Classes for createServer (its public
 * IncomingMessage and ServerResponse options) build them with the app's prototypes from the start.
 *
 * And V8 sizes the objects a plain constructor builds by the `this.x = ...` assignments written in
 * its own body: none in a wrapper that only calls Node's constructor, which then stores its some 30
 * (request) and 45 (response) fields outside the object, and its first store under a Symbol key past
 * twelve of those turns the object into a dictionary (slow properties, no inline caches) for the
 * rest of its life. Each wrapper therefore carries assignments it never runs, so that V8 reserves
 * room in the object for Node's fields and those Express and this app add; V8 gives back what stays
 * unused once it has seen a few objects built (in-object slack tracking).
 */
export function expressMessages(app: Express): { IncomingMessage: typeof IncomingMessage; ServerResponse: typeof ServerResponse } {
  function Request(this: IncomingMessage & Sized, ...args: ConstructorParameters<typeof IncomingMessage>) {
    if (sizing(args)) {
      this.s0 = this.s1 = this.s2 = this.s3 = this.s4 = this.s5 = this.s6 = this.s7 = undefined;
      this.s8 = this.s9 = this.s10 = this.s11 = this.s12 = this.s13 = this.s14 = this.s15 = undefined;
      this.s16 = this.s17 = this.s18 = this.s19 = this.s20 = this.s21 = this.s22 = this.s23 = undefined;
      this.s24 = this.s25 = this.s26 = this.s27 = this.s28 = this.s29 = this.s30 = this.s31 = undefined;
    }
    IncomingMessage.apply(this, args);
  }
  Request.prototype = app.request;
  function Response(this: ServerResponse & Sized, ...args: ConstructorParameters<typeof ServerResponse>) {
    if (sizing(args)) {
      this.s0 = this.s1 = this.s2 = this.s3 = this.s4 = this.s5 = this.s6 = this.s7 = undefined;
      this.s8 = this.s9 = this.s10 = this.s11 = this.s12 = this.s13 = this.s14 = this.s15 = undefined;
      this.s16 = this.s17 = this.s18 = this.s19 = this.s20 = this.s21 = this.s22 = this.s23 = undefined;
      this.s24 = this.s25 = this.s26 = this.s27 = this.s28 = this.s29 = this.s30 = this.s31 = undefined;
      this.s32 = this.s33 = this.s34 = this.s35 = this.s36 = this.s37 = this.s38 = this.s39 = undefined;
      this.s40 = this.s41 = this.s42 = this.s43 = this.s44 = this.s45 = this.s46 = this.s47 = undefined;
    }
    ServerResponse.apply(this, args);
  }
  Response.prototype = app.response;
  return {
    IncomingMessage: Request as unknown as typeof IncomingMessage,
    ServerResponse: Response as unknown as typeof ServerResponse,
  };
}
