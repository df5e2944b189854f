const WORKERS = 20;
/** How many writes are acknowledged before the kill. */
export const KILL_AFTER = 60;

/**
 * A burst of writes cut short by SIGKILL: WORKERS clients each send their next request as soon as
 * their last is answered, and the server is killed once KILL_AFTER writes were acknowledged. A
 * client stops at its first request that gets no answer, or when `total` requests have been sent.
 * So the kill always lands with requests in flight and more to come, however fast the server is
 * (all requests sent at once could all be answered before the signal lands). `send` answers
 * whether its write was acknowledged, the status when it was refused, and throws when no answer came.
 * Resolves with the kill's exit code, how many requests were sent (indexes 0 to sent - 1), the
 * indexes that got no answer, and the statuses of the refused.
 */
export async function burstUntilKilled(
  server: { kill(signal: NodeJS.Signals): Promise<number | null> },
  total: number,
  send: (index: number) => Promise<true | number>,
) {
  let next = 0;
  let acknowledged = 0;
  const unanswered: number[] = [];
  const refused: number[] = [];
  let killing: Promise<number | null> | undefined;
  await Promise.all(
    Array.from({ length: WORKERS }, async () => {
      while (unanswered.length === 0 && next < total) {
        const index = next++;
        const outcome = await send(index).catch(() => undefined);
        if (outcome === undefined) unanswered.push(index);
        else if (outcome !== true) refused.push(outcome);
        else if (++acknowledged === KILL_AFTER) killing = server.kill('SIGKILL');
      }
    }),
  );
  return { exitCode: await killing, sent: next, unanswered, refused };
}
