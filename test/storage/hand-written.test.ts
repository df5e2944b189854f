import { describe, expect, it } from 'vitest';
import { composeStores } from '../../src/storage/hand-written.js';

describe('composeStores', () => {
  it("puts each store's methods on the backend's object itself", () => {
    const backend = { kind: 'sqlite' };
    const read = () => 1;
    const composed = composeStores(backend, [{ read }, { write: () => 2 }]) as unknown as Record<string, unknown>;
    expect(composed).toBe(backend);
    expect(composed['read']).toBe(read);
    expect(Object.keys(composed)).toEqual(['kind', 'read', 'write']);
  });

  it('refuses a name the backend or another store has already', () => {
    expect(() => composeStores({ kind: 'sqlite' }, [{ kind: () => 1 }])).toThrow('two stores of the storage both have kind');
    expect(() => composeStores({}, [{ read: () => 1 }, { read: () => 2 }])).toThrow('both have read');
  });
});
