// on-exit-leak-free ships no types; what logger.ts uses of it.
declare module 'on-exit-leak-free' {
  const onExit: {
    /** Calls `fn(obj, 'exit')` when the process exits, while `obj` lives: held weakly, so it may still be collected. */
    register<T extends object>(obj: T, fn: (obj: T, event: 'exit') => void): void;
    unregister(obj: object): void;
  };
  export default onExit;
}
