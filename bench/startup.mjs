// Start-up time: from spawning `node dist/main.js` (directly: `npm start` first runs
// scripts/ensure-built.mjs) on an existing database to its first 200, to /healthz and to an
// authenticated GET /v1/pets, found by polling every millisecond.
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { setTimeout } from 'node:timers/promises';
import { freePort } from './processes.mjs';

function status(url, headers) {
  return new Promise((resolve) => {
    const req = request(url, { headers, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
    });
    req.on('error', () => resolve(0));
    req.end();
  });
}

async function firstOk(url, headers, started, stillRunning) {
  while ((await status(url, headers)) !== 200) {
    stillRunning();
    await setTimeout(1);
  }
  return performance.now() - started;
}

/** One start: milliseconds to the first 200 of /healthz and of an authenticated GET /v1/pets. */
export async function measureStartup({ command, env, apiKey }) {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = spawn(command[0], command.slice(1), { env: { ...process.env, ...env, PORT: String(port) }, stdio: 'ignore' });
  let exitCode;
  const exited = new Promise((resolve) => child.once('close', (code) => resolve((exitCode = code))));
  const stillRunning = () => {
    if (exitCode !== undefined) throw new Error(`${command.join(' ')} exited with ${exitCode} before answering`);
  };
  try {
    const [healthz, firstApiRequest] = await Promise.all([
      firstOk(`${origin}/healthz`, {}, started, stillRunning),
      firstOk(`${origin}/v1/pets?limit=1`, { authorization: `Bearer ${apiKey}` }, started, stillRunning),
    ]);
    return { healthz, firstApiRequest };
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}
