#!/usr/bin/env node
// The yardstick for `npm run bench`: node:http and better-sqlite3 with nothing in between, doing the
// work the API does for the benchmarked operations (bearer key hashed with SHA-256 and looked up in
// api_keys, the same queries with limit+1 paging and the Link header, the same JSON and headers,
// the same pragmas, synchronous=FULL included). It validates only what it needs to stay correct, so
// it is an upper bound for what the project can reach, not a server to deploy. BASELINE_SYNCHRONOUS=NORMAL
// runs it the way most people run SQLite (WAL + NORMAL: no fsync per commit, so an acknowledged write
// can be lost on power loss), the yardstick for the project's group commit. bench/floor-server.mjs
// puts the read operations' work behind Express and express-openapi-validator.
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';

const db = new Database(process.env.BASELINE_DB);
db.pragma('journal_mode = WAL');
const synchronous = process.env.BASELINE_SYNCHRONOUS ?? 'FULL';
if (!['FULL', 'NORMAL'].includes(synchronous)) throw new Error('BASELINE_SYNCHRONOUS must be FULL or NORMAL');
db.pragma(`synchronous = ${synchronous}`);
db.pragma('foreign_keys = ON');
db.pragma('busy_timeout = 5000');

const columns = 'id, name, category_id, status';
const findKey = db.prepare(
  'SELECT k.id AS key_id, k.account_id, a.name AS account_name FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE k.key_hash = ? AND k.revoked_at IS NULL',
);
const listAll = db.prepare(`SELECT ${columns} FROM pets WHERE id > ? ORDER BY id LIMIT ?`);
const listByStatus = db.prepare(`SELECT ${columns} FROM pets WHERE status = ? AND id > ? ORDER BY id LIMIT ?`);
const getOne = db.prepare(`SELECT ${columns}, version FROM pets WHERE id = ?`);
const insert = db.prepare(`INSERT INTO pets (name, category_id, status) VALUES (?, ?, ?) RETURNING ${columns}`);
// A merge patch: each column replaced when its member was sent (status: null included), the version
// (the ETag) counted up. No If-Match: the benchmark sends none.
const update = db.prepare(
  `UPDATE pets SET name = CASE WHEN ? THEN ? ELSE name END, category_id = CASE WHEN ? THEN ? ELSE category_id END,
     status = CASE WHEN ? THEN ? ELSE status END, version = version + 1 WHERE id = ? RETURNING ${columns}, version`,
);
const remove = db.prepare('DELETE FROM pets WHERE id = ?');

const STATUSES = new Set(['available', 'pending', 'sold']);
const DEPRECATION = {
  Deprecation: '@1795219200',
  Sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
  Link: '</v1/pets>; rel="successor-version"; title="GET /v1/pets with the status filter"',
};

const toPet = (row) =>
  row.status === null
    ? { id: row.id, name: row.name, categoryId: row.category_id }
    : { id: row.id, name: row.name, categoryId: row.category_id, status: row.status };

export function send(res, status, body, headers = {}) {
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-store',
    ...headers,
  });
  res.end(JSON.stringify(body));
}

export function authenticated(req) {
  const match = /^bearer +(\S+) *$/i.exec(req.headers.authorization ?? '');
  return match ? findKey.get(createHash('sha256').update(match[1]).digest('hex')) : undefined;
}

export function listPets(res, query) {
  const limit = query.has('limit') ? Number(query.get('limit')) : 20;
  const status = query.get('status') ?? undefined;
  if (!Number.isInteger(limit) || limit < 1 || limit > 100 || (status !== undefined && !STATUSES.has(status))) {
    return send(res, 400, { code: 'validation_failed', message: 'Invalid request.', status: 400 });
  }
  const cursor = query.get('cursor');
  const afterId = cursor ? Number(/^p1:(\d+)$/.exec(Buffer.from(cursor, 'base64url').toString('latin1'))?.[1] ?? 0) : 0;
  const rows = status === undefined ? listAll.all(afterId, limit + 1) : listByStatus.all(status, afterId, limit + 1);
  const page = rows.slice(0, limit).map(toPet);
  const headers = {};
  if (rows.length > limit) {
    const next = new URLSearchParams({ limit: String(limit), ...(status ? { status } : {}) });
    next.set('cursor', Buffer.from(`p1:${page[page.length - 1].id}`).toString('base64url'));
    headers.Link = `</v1/pets?${next}>; rel="next"`;
  }
  send(res, 200, page, headers);
}

/** The request's JSON body, or undefined once a 400 has been sent. */
export function readJson(req, res, then) {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    let body;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return send(res, 400, { code: 'malformed_json', message: 'The request body is not well-formed JSON.', status: 400 });
    }
    then(body);
  });
}

const invalid = (res) => send(res, 400, { code: 'validation_failed', message: 'Invalid request.', status: 400 });
const notFound = (res, petId, headers = {}) =>
  send(res, 404, { code: 'pet_not_found', message: `No pet with id ${petId}.`, status: 404 }, headers);

function createPet(req, res) {
  readJson(req, res, (body) => {
    if (typeof body?.name !== 'string' || !Number.isSafeInteger(body.categoryId)) return invalid(res);
    insertPet(res, body);
  });
}

/** A create's work once its body is read and valid. */
export function insertPet(res, body) {
  const row = insert.get(body.name, body.categoryId, body.status ?? null);
  send(res, 201, toPet(row), { Location: `/v1/pets/${row.id}`, ETag: `"${row.id}-1"` });
}

function updatePet(req, res, petId) {
  readJson(req, res, (patch) => {
    if (
      patch === null ||
      typeof patch !== 'object' ||
      Array.isArray(patch) ||
      Object.keys(patch).some((name) => !['name', 'categoryId', 'status'].includes(name)) ||
      ('name' in patch && typeof patch.name !== 'string') ||
      ('categoryId' in patch && !Number.isSafeInteger(patch.categoryId)) ||
      ('status' in patch && patch.status !== null && !STATUSES.has(patch.status))
    ) {
      return invalid(res);
    }
    const row = update.get(...['name', 'categoryId', 'status'].flatMap((name) => [name in patch ? 1 : 0, patch[name] ?? null]), petId);
    return row ? send(res, 200, toPet(row), { ETag: `"${row.id}-${row.version}"` }) : notFound(res, petId);
  });
}

export function getPet(res, petId) {
  const row = getOne.get(Number(petId));
  return row ? send(res, 200, toPet(row), { ...DEPRECATION, ETag: `"${row.id}-${row.version}"` }) : notFound(res, petId, DEPRECATION);
}

/** 401; with the deprecation headers when the request was for one pet (getPet is deprecated). */
export function unauthenticated(res, forOnePet) {
  send(res, 401, { code: 'invalid_api_key', message: 'The API key is not valid.', status: 401 }, forOnePet ? DEPRECATION : {});
}

function deletePet(res, petId) {
  if (remove.run(petId).changes === 0) return notFound(res, petId);
  res.writeHead(204, { 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-store' });
  res.end();
}

function serve() {
  const server = createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    if (url.pathname === '/healthz') return send(res, 200, { status: 'ok' });
    const petId = /^\/v1\/pets\/(\d+)$/.exec(url.pathname)?.[1];
    if (!authenticated(req)) return unauthenticated(res, petId !== undefined);
    if (url.pathname === '/v1/pets' && req.method === 'GET') return listPets(res, url.searchParams);
    if (url.pathname === '/v1/pets' && req.method === 'POST') return createPet(req, res);
    if (petId && req.method === 'GET') return getPet(res, petId);
    if (petId && req.method === 'PATCH') return updatePet(req, res, Number(petId));
    if (petId && req.method === 'DELETE') return deletePet(res, Number(petId));
    send(res, 404, { code: 'route_not_found', message: 'No operation here.', status: 404 });
  });
  start(server);
}

/** Listens on 127.0.0.1:PORT (any free port by default), says where as the bench expects, and stops on SIGTERM. */
export function start(server) {
  // Under callgrind (bench/cost.mjs) a request can wait longer than Node's default timeouts.
  if (process.env.HEADERS_TIMEOUT_MS) server.headersTimeout = Number(process.env.HEADERS_TIMEOUT_MS);
  if (process.env.REQUEST_TIMEOUT_MS) server.requestTimeout = Number(process.env.REQUEST_TIMEOUT_MS);
  // Node's 5 s closes a kept-alive connection whose next request waits that long to be read.
  if (process.env.KEEP_ALIVE_TIMEOUT_MS) server.keepAliveTimeout = Number(process.env.KEEP_ALIVE_TIMEOUT_MS);
  server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
    process.stdout.write(`${JSON.stringify({ msg: 'listening', url: `http://127.0.0.1:${server.address().port}/v1` })}\n`);
  });
  process.on('SIGTERM', () => {
    server.close(() => process.exit(0));
    server.closeIdleConnections();
  });
}

// Run as a server; imported by the floor server, only its work.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) serve();
