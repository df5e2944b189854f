// Fills a fresh store with pets in one statement: a recursive CTE (SQLite) or generate_series
// (PostgreSQL) inside INSERT ... SELECT, so a million rows take seconds. Statuses: 1% sold (the
// rare one), then pending, available and some without status, spread over the id range.
import Database from 'better-sqlite3';
import pg from 'pg';

const STATUS_OF = (i) =>
  `CASE WHEN ${i} % 100 = 0 THEN 'sold' WHEN ${i} % 10 = 1 THEN NULL WHEN ${i} % 3 = 0 THEN 'pending' ELSE 'available' END`;

export function seedSqlite(path, pets) {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.prepare(
    `INSERT INTO pets (name, category_id, status)
       WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
       SELECT 'pet-' || i, i % 50 + 1, ${STATUS_OF('i')} FROM n`,
  ).run(pets);
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}

export async function seedPostgres(url, pets) {
  const client = new pg.Client(url);
  await client.connect();
  try {
    await client.query(
      `INSERT INTO pets (name, category_id, status) SELECT 'pet-' || i, i % 50 + 1, ${STATUS_OF('i')} FROM generate_series(1, $1::int) AS i`,
      [pets],
    );
    await client.query('VACUUM ANALYZE pets');
  } finally {
    await client.end();
  }
}
