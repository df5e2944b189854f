// A process started ahead of need by npm run dev (warm.ts): it loads the packages named in
// DEV_PRELOAD, the slow part of a start, then waits for the one message that says which module to
// run and imports it: the server (src/main.ts), which runs as it is imported, or a job whose
// default export it runs and then exits. Packages do not change under a running npm run dev, so
// loading them early is safe; the project's own modules are imported only on that message, as they
// are then.

import net from 'node:net';

interface Start {
  entry: string;
}

// The server's first listen (the metrics', or the API's) waits for a { type: 'listen' } message,
// having asked with { type: 'ready-to-listen' }: npm run dev stops the running server, whose port
// this one takes, only once this one has got that far (its spec, its modules and its store opened),
// so a server that cannot start leaves the last good one serving. Node 20 has no SO_REUSEPORT for
// the two to share the port meanwhile.
if (process.env['DEV_LISTEN_GATE']) {
  delete process.env['DEV_LISTEN_GATE'];
  const { listen } = net.Server.prototype as { listen: (this: net.Server, ...args: unknown[]) => net.Server };
  let gate: Promise<void> | undefined;
  net.Server.prototype.listen = function (this: net.Server, ...args: unknown[]) {
    gate ??= new Promise<void>((resolve) => {
      process.on('message', (message: { type?: string }) => message.type === 'listen' && resolve());
      process.send!({ type: 'ready-to-listen' });
    });
    void gate.then(() => listen.apply(this, args));
    return this;
  } as typeof net.Server.prototype.listen;
}

const preload = JSON.parse(process.env['DEV_PRELOAD'] ?? '[]') as string[];
delete process.env['DEV_PRELOAD'];

let started = false;
// Its parent gone (npm run dev stopped or died), the process goes too: a server shuts down as on a
// signal, anything else at once.
process.once('disconnect', () => (started ? process.kill(process.pid, 'SIGTERM') : process.exit(0)));

for (const specifier of preload) {
  // One that fails to load fails again, with its own message, where the module that needs it imports it.
  await import(specifier).catch(() => undefined);
}
process.send!({ type: 'ready' });

process.once('message', (message: Start) => {
  started = true;
  void import(message.entry).then(async (module: { default?: unknown }) => {
    if (typeof module.default !== 'function') return;
    await (module.default as () => Promise<void>)();
    process.exit();
  });
});
