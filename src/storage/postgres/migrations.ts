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
];
