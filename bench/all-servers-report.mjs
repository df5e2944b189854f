// The ratios the all-servers bench reports (issue 42's targets), each computed per round from the
// servers measured side by side in that round, and its results file: bench/results/all-servers.md.
import { median } from './report.mjs';
import { formatSpread, spreadOf } from './spread.mjs';

/** The servers held at once, in the order a round visits them. */
export const SERVERS = {
  project: 'the project, as `npm start` runs it',
  floor: 'the floor (bench/floor-server.mjs), NORMAL',
  raw: 'raw node:http + better-sqlite3, FULL',
  rawNormal: 'raw node:http + better-sqlite3, NORMAL',
  fastify: 'Fastify, NORMAL',
  expressValidator: 'Express + express-openapi-validator, NORMAL',
};

/** The loads (bench/scenarios.mjs names) and which of them only read. */
export const LOADS = ['list20', 'list100', 'get', 'create'];
const READS = ['list20', 'list100', 'get'];

/**
 * Each ratio: the project's req/s over another server's (`over`), or a server's p99 over its p50
 * (`tail`), with the target for it.
 */
export function ratioDefinitions() {
  const floorTarget = { list20: 0.95, list100: 0.95, get: 0.9, create: 0.9 };
  return [
    ...LOADS.map((load) => ({ name: `${load}: project / floor`, load, over: 'floor', atLeast: floorTarget[load] })),
    { name: 'create: project / raw FULL', load: 'create', over: 'raw', atLeast: 1 },
    ...LOADS.map((load) => ({ name: `${load}: project / Express + validator`, load, over: 'expressValidator', atLeast: 1.3 })),
    ...READS.flatMap((load) => [
      { name: `${load}: project p99 / p50`, load, tail: 'project', atMost: 3, orNoWorseThan: `${load}: raw FULL p99 / p50` },
      { name: `${load}: raw FULL p99 / p50`, load, tail: 'raw' },
    ]),
  ];
}

/** One ratio's value in one round, from that round's measurements (undefined where one is missing). */
export function ratioInRound(definition, measurements) {
  const find = (server) => measurements.find((m) => m.server === server && m.load === definition.load)?.result;
  if (definition.tail) {
    const result = find(definition.tail);
    return result && result.p50 > 0 ? result.p99 / result.p50 : undefined;
  }
  const project = find('project');
  const other = find(definition.over);
  return project && other && other.requestsPerSecond > 0 ? project.requestsPerSecond / other.requestsPerSecond : undefined;
}

/** Each ratio's value in every round so far: what roundsVerdict and the report read. */
export function ratiosByRound(measurements, definitions = ratioDefinitions()) {
  const rounds = [...new Set(measurements.map((m) => m.round))].sort((a, b) => a - b);
  return Object.fromEntries(
    definitions.map((definition) => [
      definition.name,
      rounds
        .map((round) =>
          ratioInRound(
            definition,
            measurements.filter((m) => m.round === round),
          ),
        )
        .filter((value) => value !== undefined),
    ]),
  );
}

/** Whether a ratio's median meets its target: undefined where it has none. */
function meets(definition, medians) {
  const value = medians[definition.name];
  if (definition.atLeast !== undefined) return value >= definition.atLeast;
  if (definition.atMost !== undefined) return value <= definition.atMost || value <= medians[definition.orNoWorseThan];
  return undefined;
}

function targetText(definition) {
  if (definition.atLeast !== undefined) return `≥ ${definition.atLeast}`;
  if (definition.atMost !== undefined) return `≤ ${definition.atMost}, or ≤ raw FULL's`;
  return '';
}

/** Each ratio's median, spread and bounds over the rounds, with its target and whether it is met. */
export function summariseRatios(measurements, confidence, definitions = ratioDefinitions()) {
  const values = ratiosByRound(measurements, definitions);
  const spreads = Object.fromEntries(definitions.map(({ name }) => [name, spreadOf(values[name], confidence)]));
  const medians = Object.fromEntries(definitions.map(({ name }) => [name, spreads[name].median]));
  return definitions.map((definition) => ({
    name: definition.name,
    ...spreads[definition.name],
    values: values[definition.name],
    target: targetText(definition),
    met: meets(definition, medians),
  }));
}

/** Each server's medians per load over the rounds. */
export function summariseServers(measurements) {
  return LOADS.flatMap((load) =>
    Object.keys(SERVERS).map((server) => {
      const runs = measurements.filter((m) => m.load === load && m.server === server).map((m) => m.result);
      return {
        load,
        server,
        requestsPerSecond: median(runs.map((r) => r.requestsPerSecond)),
        p50: median(runs.map((r) => r.p50)),
        p99: median(runs.map((r) => r.p99)),
        cpuMicrosPerRequest: median(runs.map((r) => r.cpuMicrosPerRequest)),
        unexpected: runs.reduce((sum, r) => sum + (r.unexpected ?? 0), 0),
      };
    }),
  );
}

const fixed = (value, digits = 2) => (value === undefined ? '' : value.toFixed(digits));
const whole = (value) => (value === undefined ? '' : Math.round(value).toLocaleString('en-US'));

/** bench/results/all-servers.md. */
export function allServersMarkdown(run) {
  const { config, verdict } = run;
  const lines = [
    '# All servers at once',
    '',
    `Run ${run.date}: Node ${run.node}, ${run.cpu}, ${run.pinning}; wrk -t1 -c${config.connections}; ` +
      `${config.pets.toLocaleString('en-US')} pets; per load and server ${config.warmup} s of warm-up, then ${config.duration} s per round.`,
    '',
    `${verdict.rounds} round${verdict.rounds === 1 ? '' : 's'}, interleaved server by server. ` +
      (verdict.settled
        ? `Every ratio's spread is within ±${config.tolerance * 100} %.`
        : `Stopped at the cap of ${config.maxRounds} rounds with these ratios' spread above ±${config.tolerance * 100} %: ${verdict.wide.join('; ')}.`),
    `The spread is the larger distance from the median over the rounds to the bounds of that median at ${config.confidence * 100} % confidence (order statistics), as a share of the median (bench/spread.mjs).`,
    '',
    '| ratio | median | spread | bounds | target | met |',
    '|---|--:|--:|--:|--:|:-:|',
    ...run.ratios.map(
      (r) =>
        `| ${r.name} | ${fixed(r.median)} | ${formatSpread(r.spread)} | ${fixed(r.low)}–${fixed(r.high)} | ${r.target} | ${r.met === undefined ? '' : r.met ? 'yes' : '**no**'} |`,
    ),
    '',
    'Medians over the rounds:',
    '',
    '| load | server | req/s | p50 ms | p99 ms | CPU µs/req | unexpected statuses |',
    '|---|---|--:|--:|--:|--:|--:|',
    ...run.servers.map(
      (s) =>
        `| ${s.load} | ${SERVERS[s.server]} | ${whole(s.requestsPerSecond)} | ${fixed(s.p50)} | ${fixed(s.p99)} | ${whole(s.cpuMicrosPerRequest)} | ${s.unexpected || ''} |`,
    ),
    '',
  ];
  return lines.join('\n');
}
