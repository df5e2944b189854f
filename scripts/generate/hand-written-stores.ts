// src/storage/{sqlite,postgres}/hand-written-stores.ts: the store written by hand of each table whose
// x-storage says `handWritten: true`, which each backend composes (src/storage/hand-written.ts), so
// that no backend names one and a document without such a table builds with none.
import type { OpenApiDocument } from '../../src/contract/spec.js';
import type { FileText } from './scaffold.js';
import { persistedSchemas } from './tables.js';

/** A table's name as an identifier: `pet_photos` → `petPhotos`. */
function identifier(table: string): string {
  return table.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
}

const BACKENDS = [
  { name: 'sqlite', store: 'sqliteStore', type: 'SqliteHandWrittenStore', constant: 'SQLITE_STORES', backend: 'SQLite' },
  { name: 'postgres', store: 'postgresStore', type: 'PostgresHandWrittenStore', constant: 'POSTGRES_STORES', backend: 'PostgreSQL' },
] as const;

export function handWrittenStoresModules(document: OpenApiDocument, header: string): FileText[] {
  const tables = persistedSchemas(document)
    .filter(({ handWritten }) => handWritten === true)
    .map(({ table }) => table);
  return BACKENDS.map(({ name, store, type, constant, backend }) => {
    const imports = tables.map((table) => `import { ${store} as ${identifier(table)} } from '../${table}/${name}.js';`);
    const entries = tables.map((table) => (identifier(table) === table ? `  ${table},` : `  ${table}: ${identifier(table)},`));
    // The stores' methods as the backends expose them: declared once, with the PostgreSQL registry.
    const methods =
      name !== 'postgres'
        ? ''
        : `\n/** The methods of each store, as the backends expose them. */\nexport type PostgresHandWritten = ${
            tables.length === 0 ? 'never' : tables.map((table) => `ReturnType<typeof ${identifier(table)}.open>`).join(' | ')
          };\n`;
    return {
      path: `src/storage/${name}/hand-written-stores.ts`,
      text:
        `${header}// The hand-written store of each table whose x-storage has \`handWritten: true\`, in\n` +
        `// src/storage/<table>/${name}.ts, composed into the ${backend} backend (src/storage/hand-written.ts).\n` +
        `import type { ${type} } from '../hand-written.js';\n${imports.join('\n')}\n\n` +
        `export const ${constant}: Readonly<Record<string, ${type}<object>>> = {\n${entries.join('\n')}\n};\n${methods}`,
    };
  });
}
