// Starting, pinning, measuring and stopping the processes of a benchmark run.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, openSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { setTimeout } from 'node:timers/promises';

const hasTaskset = spawnSync('taskset', ['-c', '0', 'true']).status === 0;

/** A port nothing listens on right now (the kernel's pick). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * The project server's settings beyond the store, as deployed: the metrics listener on (a free
 * port of its own: METRICS_PORT is fixed, 9464, by default) unless the run turns it off, and the
 * rate limiter counting every request under a quota the run never reaches.
 */
export async function deployedSettings(config) {
  return {
    METRICS_PORT: config.metrics ? String(await freePort()) : '0',
    RATE_LIMIT_PER_MINUTE: String(config.rateLimitPerMinute),
  };
}

/** The command prefixed with `taskset -c CORE` where taskset exists (util-linux). */
export function pinned(core, command) {
  return hasTaskset ? ['taskset', '-c', String(core), ...command] : command;
}

export const pinning = hasTaskset ? 'server on core 0, load generator on core 1 (taskset)' : 'not pinned (taskset not found)';

/**
 * Starts a server that logs a `listening` JSON line with its url; resolves with its handle. Its
 * stdout (the request log: the server runs with its default LOG_LEVEL, as deployed) goes to a file,
 * as a log shipper would take it, so reading it costs the benchmark nothing. A server still running
 * without that line after `startTimeoutMs` (generous: callgrind starts Node slowly) is stopped and
 * the run fails, naming it, rather than waiting for ever.
 */
export async function startServer({ command, env, logFile, core = 0, serves, cwd, startTimeoutMs = 300_000 }) {
  const [file, ...args] = pinned(core, command);
  const log = openSync(logFile, 'w');
  const child = spawn(file, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', log, 'pipe'] });
  closeSync(log);
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  let exitCode;
  const exited = new Promise((resolve) => child.once('close', (code) => resolve((exitCode = code))));
  const deadline = performance.now() + startTimeoutMs;
  for (;;) {
    if (exitCode !== undefined) throw new Error(`${command.join(' ')} exited with ${exitCode} before listening: ${stderr}`);
    if (performance.now() > deadline) {
      // Under a launcher, the server first: killing npm would leave it running.
      if (serves) {
        try {
          process.kill(descendantRunning(child.pid, serves), 'SIGKILL');
        } catch {
          // Not started yet, or gone already.
        }
      }
      child.kill('SIGKILL');
      await exited;
      throw new Error(
        `${command.join(' ')} printed no "listening" line to ${logFile} within ${startTimeoutMs / 1000} s; stopped. Its stderr: ${stderr}`,
      );
    }
    const url = listeningUrl(readFileSync(logFile, 'utf8'));
    if (url) {
      // Under a launcher (npm start), the process measured and stopped is the server it runs.
      const pid = serves ? descendantRunning(child.pid, serves) : child.pid;
      return {
        pid,
        origin: url.origin,
        basePath: url.pathname,
        rssBytes: () => rssOf(pid),
        peakRss: peakRssOf(pid),
        cpuSeconds: () => cpuSecondsOf(pid),
        stop: async () => {
          // The server itself: a shell between npm and it may not pass a signal on.
          process.kill(pid, 'SIGTERM');
          return exited;
        },
      };
    }
    await setTimeout(10);
  }
}

/**
 * The pid of the process below `pid` (itself included) that runs the script `script`: one of its
 * arguments is that path, or ends with it. A shell whose command string merely mentions it is not.
 */
export function descendantRunning(pid, script) {
  const queue = [pid];
  while (queue.length) {
    const next = queue.shift();
    const args = readFileSync(`/proc/${next}/cmdline`, 'utf8').split('\0').slice(1);
    if (args.some((arg) => arg === script || arg.endsWith(`/${script}`))) return next;
    for (const task of readdirSync(`/proc/${next}/task`)) {
      queue.push(...readFileSync(`/proc/${next}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number));
    }
  }
  throw new Error(`no process below ${pid} runs ${script}`);
}

function listeningUrl(log) {
  // The last piece may be a line still being written.
  for (const line of log.split('\n').slice(0, -1)) {
    if (!line.startsWith('{')) continue;
    const entry = JSON.parse(line);
    if (entry.msg === 'listening' && entry.url) return new URL(entry.url);
  }
  return undefined;
}

/** Resident set size of the node process (taskset execs it, so the pid is node's own). */
function rssOf(pid) {
  return statusBytes(pid, 'VmRSS');
}

function statusBytes(pid, field) {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : undefined;
}

/**
 * The highest RSS since the last reset: the kernel's high-water mark (VmHWM), which writing 5 to
 * /proc/PID/clear_refs resets (Linux 4.0+). The RSS at one instant moves by a fifth with the timing
 * of V8's collections (101 and 126 MiB minutes apart in one round); the peak over a round is
 * what a memory limit has to allow, and what a leak would push up round after round.
 */
function peakRssOf(pid) {
  let resettable = true;
  return {
    reset: () => {
      try {
        writeFileSync(`/proc/${pid}/clear_refs`, '5');
      } catch {
        resettable = false;
      }
    },
    /** Bytes, or undefined where the peak cannot be reset (it would be the peak since start). */
    read: () => (resettable ? statusBytes(pid, 'VmHWM') : undefined),
  };
}

/**
 * CPU time the process has used (user + system): per request, it is what a request costs the server
 * whatever else runs on the machine, which req/s alone is not on a shared machine.
 */
function cpuSecondsOf(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  // utime and stime are fields 14 and 15 of stat, in clock ticks (100 per second on Linux).
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Runs bench/load.mjs (autocannon) or, with `generator: 'wrk'`, bench/load-wrk.mjs on core 1 and returns what it measured. */
export function runLoad({ generator = 'autocannon', ...options }) {
  const script = generator === 'wrk' ? './load-wrk.mjs' : './load.mjs';
  const [file, ...args] = pinned(1, [process.execPath, new URL(script, import.meta.url).pathname, JSON.stringify(options)]);
  const result = spawnSync(file, args, { encoding: 'utf8', maxBuffer: 1 << 20 });
  if (result.status !== 0) throw new Error(`load generator failed: ${result.stderr}`);
  return JSON.parse(result.stdout.trim().split('\n').at(-1));
}
