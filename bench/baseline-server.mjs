#!/usr/bin/env node
// The yardstick for `npm run bench`: node:http and better-sqlite3 with nothing in between, doing the
// work the API does for the benchmarked operations (bearer key hashed with SHA-256 and looked up in
// api_keys, the same queries with limit+1 paging and the Link header, the same JSON and headers,
// the same pragmas, synchronous=FULL included). It validates only what it needs to stay correct, so
// it is an upper bound for what the project can reach, not a server to deploy. BASELINE_SYNCHRONOUS=NORMAL
// runs it the way most people run SQLite (WAL + NORMAL: no fsync per commit, so an acknowledged write
// can be lost on power loss), the yardstick for the project's group commit.
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
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
const getOne = db.prepare(`SELECT ${columns} FROM pets WHERE id = ?`);
const insert = db.prepare(`INSERT INTO pets (name, category_id, status) VALUES (?, ?, ?) RETURNING ${columns}`);

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

function send(res, status, body, headers = {}) {
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-store',
    ...headers,
  });
  res.end(JSON.stringify(body));
}

function authenticated(req) {
  const match = /^bearer +(\S+) *$/i.exec(req.headers.authorization ?? '');
  return match ? findKey.get(createHash('sha256').update(match[1]).digest('hex')) : undefined;
}

function listPets(res, query) {
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

function createPet(req, res) {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    let body;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return send(res, 400, { code: 'malformed_json', message: 'The request body is not well-formed JSON.', status: 400 });
    }
    if (typeof body?.name !== 'string' || !Number.isSafeInteger(body.categoryId)) {
      return send(res, 400, { code: 'validation_failed', message: 'Invalid request.', status: 400 });
    }
    const pet = toPet(insert.get(body.name, body.categoryId, body.status ?? null));
    send(res, 201, pet, { Location: `/v1/pets/${pet.id}` });
  });
}

const server = createServer((req, res) => {
  const url = new URL(req.url, 'http://x');
  if (url.pathname === '/healthz') return send(res, 200, { status: 'ok' });
  const petId = /^\/v1\/pets\/(\d+)$/.exec(url.pathname)?.[1];
  if (!authenticated(req)) {
    return send(res, 401, { code: 'invalid_api_key', message: 'The API key is not valid.', status: 401 }, petId ? DEPRECATION : {});
  }
  if (url.pathname === '/v1/pets' && req.method === 'GET') return listPets(res, url.searchParams);
  if (url.pathname === '/v1/pets' && req.method === 'POST') return createPet(req, res);
  if (petId && req.method === 'GET') {
    const row = getOne.get(Number(petId));
    return row
      ? send(res, 200, toPet(row), DEPRECATION)
      : send(res, 404, { code: 'pet_not_found', message: `No pet with id ${petId}.`, status: 404 }, DEPRECATION);
  }
  send(res, 404, { code: 'route_not_found', message: 'No operation here.', status: 404 });
});

server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ msg: 'listening', url: `http://127.0.0.1:${server.address().port}/v1` })}\n`);
});
process.on('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeIdleConnections();
});
