// A process started ahead of need by npm run dev (warm.ts): it loads the packages named in
// DEV_PRELOAD, the slow part of a start, then waits for the one message that says which module to
// run and imports it: the server (src/main.ts), which runs as it is imported, or a job whose
// default export it runs and then exits. Packages do not change under a running npm run dev, so
// loading them early is safe; the project's own modules are imported only on that message, as they
// are then.

interface Start {
  entry: string;
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
