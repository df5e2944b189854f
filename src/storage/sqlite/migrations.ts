import type { Migration } from '../migration.js';

export const sqliteMigrations: readonly Migration[] = [
  {
    version: 1,
    name: 'pets, accounts and api keys',
    sql: `
      -- AUTOINCREMENT so that ids are never reused, even after the highest row is gone.
      CREATE TABLE pets (
        id          INTEGER PRIMARY KEY AUTOINCREMENT,
        name        TEXT    NOT NULL,
        category_id INTEGER NOT NULL,
        status      TEXT,
        created_at  TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
      );
      -- Serves the status-filtered page in id order straight from the index.
      CREATE INDEX pets_status_id ON pets (status, id);

      CREATE TABLE accounts (
        id         INTEGER PRIMARY KEY AUTOINCREMENT,
        name       TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
      );

      CREATE TABLE api_keys (
        id             INTEGER PRIMARY KEY AUTOINCREMENT,
        account_id     INTEGER NOT NULL REFERENCES accounts (id),
        key_hash       TEXT    NOT NULL UNIQUE,
        display_prefix TEXT    NOT NULL,
        created_at     TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
        revoked_at     TEXT
      );
    `,
  },
  {
    version: 2,
    name: 'idempotency keys',
    sql: `
      -- One row per account and Idempotency-Key: the first request's body fingerprint and the response
      -- it got, written in the transaction that created what the response describes.
      CREATE TABLE idempotency_keys (
        account_id  INTEGER NOT NULL REFERENCES accounts (id),
        key         TEXT    NOT NULL,
        fingerprint TEXT    NOT NULL,
        status      INTEGER NOT NULL,
        headers     TEXT    NOT NULL, -- the headers the operation set, as a JSON object
        body        BLOB    NOT NULL, -- byte for byte as sent
        created_at  TEXT    NOT NULL,
        expires_at  TEXT    NOT NULL,
        PRIMARY KEY (account_id, key)
      ) WITHOUT ROWID;
      -- Finds the few expired records each new one clears away.
      CREATE INDEX idempotency_keys_expires_at ON idempotency_keys (expires_at);
    `,
  },
  {
    version: 3,
    name: 'pet versions',
    sql: `
      -- Each pet's version, whose ETag it is: 1 (FIRST_PET_VERSION) for the pets there are and every new
      -- one, raised by every update. Adding a column with a constant default rewrites no row.
      ALTER TABLE pets ADD COLUMN version INTEGER NOT NULL DEFAULT 1;
    `,
  },
  {
    version: 4,
    name: 'create orders',
    // Written by `npm run generate` for Order (table orders) of openapi.yaml. Review it before
    // it is committed; once shipped, never edit it: add the next one.
    sql: `
      CREATE TABLE "orders" (
        "id" INTEGER PRIMARY KEY AUTOINCREMENT,
        "pet_id" INTEGER NOT NULL CONSTRAINT "orders_pet_id_fkey" REFERENCES "pets" ("id") ON DELETE CASCADE,
        "quantity" INTEGER NOT NULL,
        "ship_date" TEXT,
        "status" TEXT NOT NULL DEFAULT 'placed'
      );
      CREATE INDEX orders_status_id ON "orders" ("status", "id");
      CREATE INDEX orders_pet_id ON "orders" ("pet_id");
    `,
  },
];
