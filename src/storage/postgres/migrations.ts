import type { Migration } from '../migration.js';

export const postgresMigrations: readonly Migration[] = [
  {
    version: 1,
    name: 'pets, accounts and api keys',
    sql: `
      -- Identity columns draw from a sequence: ids are never reused (gaps are possible).
      CREATE TABLE pets (
        id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        name        text        NOT NULL,
        category_id bigint      NOT NULL,
        status      text,
        created_at  timestamptz NOT NULL DEFAULT now()
      );
      -- Serves the status-filtered page in id order straight from the index.
      CREATE INDEX pets_status_id ON pets (status, id);

      CREATE TABLE accounts (
        id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        name       text        NOT NULL UNIQUE,
        created_at timestamptz NOT NULL DEFAULT now()
      );

      CREATE TABLE api_keys (
        id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        account_id     bigint      NOT NULL REFERENCES accounts (id),
        key_hash       text        NOT NULL UNIQUE,
        display_prefix text        NOT NULL,
        created_at     timestamptz NOT NULL DEFAULT now(),
        revoked_at     timestamptz
      );
    `,
  },
  {
    version: 2,
    name: 'pages of a status from the status index alone',
    // A page of one status then comes from the index alone (an index-only scan where the table's
    // visibility map allows, which autovacuum maintains). Building it blocks writes to pets for
    // about a second per million rows.
    sql: `
      CREATE INDEX pets_status_id_covering ON pets (status, id) INCLUDE (name, category_id);
      DROP INDEX pets_status_id;
      ALTER INDEX pets_status_id_covering RENAME TO pets_status_id;
    `,
  },
  {
    version: 3,
    name: 'idempotency keys',
    sql: `
      -- One row per account and Idempotency-Key: the first request's body fingerprint and the response
      -- it got, written in the transaction that created what the response describes.
      CREATE TABLE idempotency_keys (
        account_id  bigint      NOT NULL REFERENCES accounts (id),
        key         text        NOT NULL,
        fingerprint text        NOT NULL,
        status      integer     NOT NULL,
        headers     text        NOT NULL, -- the headers the operation set, as a JSON object
        body        bytea       NOT NULL, -- byte for byte as sent
        created_at  timestamptz NOT NULL,
        expires_at  timestamptz NOT NULL,
        PRIMARY KEY (account_id, key)
      );
      -- Finds the few expired records each new one clears away.
      CREATE INDEX idempotency_keys_expires_at ON idempotency_keys (expires_at);
    `,
  },
  {
    version: 4,
    name: 'rate limit counters',
    sql: `
      -- One row per rate-limited key and window, in the shape rate-limiter-flexible's PostgreSQL store
      -- reads and upserts (key, points, expire in Unix milliseconds). Unlogged: counts are not worth a
      -- WAL flush per request, and after a crash every window simply starts again.
      CREATE UNLOGGED TABLE rate_limits (
        key    varchar(255) PRIMARY KEY,
        points integer      NOT NULL DEFAULT 0,
        expire bigint
      );
    `,
  },
  {
    version: 5,
    name: 'pet versions',
    // A column with a constant default is added without rewriting the table (PostgreSQL 11 and later).
    sql: `
      -- Each pet's version, whose ETag it is: 1 (FIRST_PET_VERSION) for the pets there are and every new
      -- one, raised by every update. Pages are not versioned, so pets_status_id need not include it.
      ALTER TABLE pets ADD COLUMN version bigint NOT NULL DEFAULT 1;
    `,
  },
  {
    version: 6,
    name: 'create orders',
    // Written by `npm run generate` for Order (table orders) of openapi.yaml. Review it before
    // it is committed; once shipped, never edit it: add the next one.
    sql: `
      CREATE TABLE "orders" (
        "id" bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        "pet_id" bigint NOT NULL CONSTRAINT "orders_pet_id_fkey" REFERENCES "pets" ("id") ON DELETE CASCADE,
        "quantity" bigint NOT NULL,
        "ship_date" text,
        "status" text NOT NULL DEFAULT 'placed'
      );
      CREATE INDEX orders_status_id ON "orders" ("status", "id");
      CREATE INDEX orders_pet_id ON "orders" ("pet_id");
    `,
  },
];
