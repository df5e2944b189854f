// Turns the measurements of a run into the committed results: JSON (everything), a Markdown table
// (medians over the rounds) and an SVG bar chart of the same medians.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function median(values) {
  const sorted = values.filter((v) => v !== undefined).sort((a, b) => a - b);
  if (sorted.length === 0) return undefined;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Medians per scenario and server over the rounds, per operation too, and the project's ratios to the baselines. */
export function summarise(scenarios, measurements) {
  return scenarios.map(({ name, label, mixed = false, requests }) => {
    const of = (server) => {
      const runs = measurements.filter((m) => m.scenario === name && m.server === server).map((m) => m.result);
      if (runs.length === 0) return undefined;
      const ops = [...new Set(requests.map((request) => request.op))];
      return {
        requestsPerSecond: median(runs.map((r) => r.requestsPerSecond)),
        p50: median(runs.map((r) => r.p50)),
        p99: median(runs.map((r) => r.p99)),
        cpuMicrosPerRequest: median(runs.map((r) => r.cpuMicrosPerRequest)),
        unexpected: runs.reduce((sum, r) => sum + r.unexpected + r.errors + r.timeouts, 0),
        byOperation: Object.fromEntries(
          ops
            .filter((op) => runs.some((r) => r.byOperation?.[op]))
            .map((op) => [
              op,
              { p50: median(runs.map((r) => r.byOperation?.[op]?.p50)), p99: median(runs.map((r) => r.byOperation?.[op]?.p99)) },
            ]),
        ),
      };
    };
    const project = of('project');
    const baseline = of('baseline');
    const normal = of('normal');
    const floor = of('floor');
    const ratioTo = (other) => (project && other ? project.requestsPerSecond / other.requestsPerSecond : undefined);
    const tail = (server) => (server?.p50 ? server.p99 / server.p50 : undefined);
    return {
      name,
      label,
      mixed,
      project,
      baseline,
      normal,
      floor,
      ratio: ratioTo(baseline),
      ratioNormal: ratioTo(normal),
      // The floor's own ratio to the raw server (at NORMAL where the scenario writes, as the floor
      // runs): the most any server keeping Express and the validator can reach.
      floorRatio: floor && (normal ?? baseline) ? floor.requestsPerSecond / (normal ?? baseline).requestsPerSecond : undefined,
      // The project against the floor: what its own work costs over Express and the validator.
      ratioFloor: ratioTo(floor),
      // p99 ÷ p50 of each server: how flat its tail is.
      tails: { project: tail(project), baseline: tail(baseline), normal: tail(normal), floor: tail(floor) },
    };
  });
}

const fixed = (value, digits = 0) =>
  value === undefined ? 'n/a' : value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

export function markdownTable(summary) {
  const lines = [
    '| operation | project req/s | p50 ms | p99 ms | CPU µs/req | baseline (FULL) req/s | p50 ms | p99 ms | CPU µs/req | ratio | baseline (NORMAL) req/s | ratio to NORMAL | floor req/s | CPU µs/req | floor ratio |',
    '|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|',
  ];
  for (const { label, project, baseline, normal, floor, ratio, ratioNormal, floorRatio } of summary) {
    lines.push(
      `| ${label} | ${fixed(project?.requestsPerSecond)} | ${fixed(project?.p50, 2)} | ${fixed(project?.p99, 2)} | ${fixed(project?.cpuMicrosPerRequest)} | ${fixed(baseline?.requestsPerSecond)} | ${fixed(baseline?.p50, 2)} | ${fixed(baseline?.p99, 2)} | ${fixed(baseline?.cpuMicrosPerRequest)} | ${fixed(ratio, 2)} | ${normal ? fixed(normal.requestsPerSecond) : ''} | ${normal ? fixed(ratioNormal, 2) : ''} | ${floor ? fixed(floor.requestsPerSecond) : ''} | ${floor ? fixed(floor.cpuMicrosPerRequest) : ''} | ${floor ? fixed(floorRatio, 2) : ''} |`,
    );
  }
  return lines.join('\n');
}

/**
 * The ratios the performance targets are stated in, per scenario: the project against the floor,
 * the floor against the raw server (at NORMAL for the writes, as the floor runs), the project
 * against the raw server at NORMAL (the writes), and each server's p99 ÷ p50.
 */
export function ratiosTable(summary) {
  const tail = (value) => (value === undefined ? '' : fixed(value, 1));
  const lines = [
    '| operation | project ÷ floor | floor ÷ raw (NORMAL where it writes) | project ÷ raw FULL | project ÷ raw NORMAL | p99/p50 project | p99/p50 floor | p99/p50 raw FULL | p99/p50 raw NORMAL |',
    '|---|--:|--:|--:|--:|--:|--:|--:|--:|',
  ];
  for (const { label, ratioFloor, floorRatio, ratio, ratioNormal, tails } of summary) {
    const cell = (value) => (value === undefined ? '' : fixed(value, 2));
    lines.push(
      `| ${label} | ${cell(ratioFloor)} | ${cell(floorRatio)} | ${cell(ratio)} | ${cell(ratioNormal)} | ${tail(tails.project)} | ${tail(tails.floor)} | ${tail(tails.baseline)} | ${tail(tails.normal)} |`,
    );
  }
  return lines.join('\n');
}

/** Each operation's own latencies in the scenarios of several operations that are no mix (delete: create, then delete). */
export function operationsTable(summary) {
  const lines = [];
  for (const scenario of summary.filter((s) => !s.mixed)) {
    for (const server of ['project', 'baseline', 'normal']) {
      const byOperation = Object.entries(scenario[server]?.byOperation ?? {});
      if (byOperation.length < 2) continue;
      for (const [op, { p50, p99 }] of byOperation)
        lines.push(`| ${scenario.name} | ${server} | ${op} | ${fixed(p50, 2)} | ${fixed(p99, 2)} |`);
    }
  }
  if (!lines.length) return '';
  return ['| scenario | server | operation | p50 ms | p99 ms |', '|---|---|---|--:|--:|', ...lines].join('\n');
}

/** The mixed workloads: each operation's latencies with and without the creates, for each server. */
export function mixedTable(summary) {
  const mix = summary.find((s) => s.name === 'mix');
  const reads = summary.find((s) => s.name === 'mixreads');
  if (!mix && !reads) return '';
  const servers = ['project', 'baseline', 'normal', 'floor'].filter((server) => mix?.[server] || reads?.[server]);
  const lines = [
    '| server | operation | p50 ms, reads only | p99 ms, reads only | p50 ms, with 20 % creates | p99 ms, with 20 % creates | p99 with ÷ p99 without |',
    '|---|---|--:|--:|--:|--:|--:|',
  ];
  for (const server of servers) {
    for (const op of ['list20', 'get', 'create']) {
      const without = reads?.[server]?.byOperation?.[op];
      const within = mix?.[server]?.byOperation?.[op];
      if (!without && !within) continue;
      const growth = without?.p99 && within?.p99 ? within.p99 / without.p99 : undefined;
      lines.push(
        `| ${server} | ${op} | ${fixed(without?.p50, 2)} | ${fixed(without?.p99, 2)} | ${fixed(within?.p50, 2)} | ${fixed(within?.p99, 2)} | ${fixed(growth, 2)} |`,
      );
    }
  }
  const throughput = servers
    .map(
      (server) =>
        `${server} ${fixed(mix?.[server]?.requestsPerSecond)} req/s with the creates, ${fixed(reads?.[server]?.requestsPerSecond)} without`,
    )
    .join('; ');
  // wrk reports a run's latencies as a whole, not each operation's.
  const table =
    lines.length > 2 ? `${lines.join('\n')}\n\n` : "Each operation's own latencies in the mixes: not measured by this load generator.\n\n";
  return `${table}Throughput of the mixes: ${throughput}.`;
}

/** The values in MiB, and the last against the first. */
function mebibytes(values) {
  const list = values.map((bytes) => `${fixed(bytes / 2 ** 20)} MiB`).join(', ');
  if (values.length < 2) return list;
  const change = (100 * (values.at(-1) - values[0])) / values[0];
  return `${list} (last round ${change >= 0 ? '+' : ''}${fixed(change, 1)} % against the first)`;
}

export function markdownReport(run) {
  const startup = run.startup
    ? `Start-up of \`node dist/main.js\` on the existing database to its first 200 (median of ${run.startup.runs.length}): ` +
      `/healthz ${fixed(run.startup.healthz)} ms, authenticated GET /v1/pets ${fixed(run.startup.firstApiRequest)} ms.`
    : '';
  const rss = [
    run.peakRss && `Project server peak RSS in each round: ${mebibytes(run.peakRss)}.`,
    run.rss.length && `Project server RSS right after its last operation of each round: ${mebibytes(run.rss)}.`,
  ]
    .filter(Boolean)
    .join(' ');
  return [
    `# Benchmark: ${run.config.backend}, ${run.config.pets.toLocaleString('en-US')} pets`,
    '',
    `${run.date}, Node ${run.node}, ${run.cpu}; ${run.pinning}; ${run.config.connections} connections, ` +
      `${run.config.duration} s per measurement after ${run.config.warmup} s warm-up, ${run.config.rounds} rounds alternating the servers; ` +
      `project server ${run.config.server === 'npm-start' ? 'started with `npm start`' : 'started as `node dist/main.js`'}, with metrics ${run.config.metrics === false ? 'off' : 'on'} and RATE_LIMIT_PER_MINUTE=${run.config.rateLimitPerMinute ?? 0}; ` +
      `medians over the rounds. Latencies in ms (${run.config.generator ?? 'autocannon'}). CPU µs/req: CPU time the server process used per request. Ratio: project req/s ÷ baseline req/s, the baseline at synchronous=FULL (the project's durability) and, for the scenarios that write, at NORMAL. ` +
      `Floor (the reads and createPet): Express 5 and express-openapi-validator as the project sets them up around the baseline's work and nothing else (bench/floor-server.mjs), at synchronous=NORMAL; floor ratio: its req/s ÷ the baseline's (at NORMAL where the scenario writes), the most a server keeping both can reach.`,
    '',
    markdownTable(run.summary),
    '',
    "The ratios of the targets (docs/performance.md): req/s against req/s, and each server's p99 latency ÷ its p50.",
    '',
    ratiosTable(run.summary),
    '',
    operationsTable(run.summary),
    '',
    mixedTable(run.summary),
    '',
    startup,
    '',
    rss,
    '',
  ].join('\n');
}

/** Grouped horizontal bars: project, baseline and (where it runs) floor req/s per operation, the ratio beside them. */
export function svgChart(run) {
  const bars = [
    ['project', '#2b6cb0', 'project (Express 5 + express-openapi-validator)'],
    ['baseline', '#a0aec0', 'raw node:http baseline'],
    ['floor', '#9ae6b4', 'floor: Express + validator alone'],
  ].filter(([server]) => run.summary.some((s) => s[server]));
  const rowHeight = 14 + bars.length * 22;
  const left = 300;
  const width = 900;
  const barArea = width - left - 110;
  const top = 50;
  const height = top + run.summary.length * rowHeight + 40;
  const max = Math.max(1, ...run.summary.flatMap((s) => bars.map(([server]) => s[server]?.requestsPerSecond ?? 0)));
  const escape = (text) => String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="13">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="10" y="22" font-size="16" font-weight="bold">${escape(`Requests per second, ${run.config.backend}, ${run.config.pets.toLocaleString('en-US')} pets (median of ${run.config.rounds})`)}</text>`,
    ...bars.map(
      ([, colour, legend], j) =>
        `<rect x="${10 + j * 300}" y="30" width="12" height="12" fill="${colour}"/><text x="${28 + j * 300}" y="41">${escape(legend)}</text>`,
    ),
  ];
  run.summary.forEach((s, i) => {
    const y = top + i * rowHeight;
    parts.push(`<text x="10" y="${y + 26}">${escape(s.label)}</text>`);
    bars.forEach(([server, colour], j) => {
      if (!s[server]) return;
      const value = s[server].requestsPerSecond ?? 0;
      const w = Math.max(1, (value / max) * barArea);
      const by = y + 6 + j * 22;
      parts.push(`<rect x="${left}" y="${by}" width="${w.toFixed(1)}" height="18" fill="${colour}"/>`);
      parts.push(`<text x="${left + w + 6}" y="${by + 14}">${fixed(value)}</text>`);
    });
    if (s.ratio !== undefined) parts.push(`<text x="${width - 60}" y="${y + 26}" font-weight="bold">${fixed(s.ratio, 2)}×</text>`);
  });
  parts.push('</svg>');
  return parts.join('\n');
}

/** `sqlite-10000`, with `-wrk` under wrk and `-npm-start` for a server started by `npm start`: one name per kind of run. */
export function resultsName({ backend, pets, generator, server }) {
  return `${backend}-${pets}${generator === 'wrk' ? '-wrk' : ''}${server === 'npm-start' ? '-npm-start' : ''}`;
}

export function writeResults(dir, run) {
  mkdirSync(dir, { recursive: true });
  const base = join(dir, resultsName(run.config));
  writeFileSync(`${base}.json`, `${JSON.stringify(run, null, 2)}\n`);
  writeFileSync(`${base}.md`, markdownReport(run));
  writeFileSync(`${base}.svg`, `${svgChart(run)}\n`);
  return [`${base}.json`, `${base}.md`, `${base}.svg`];
}
