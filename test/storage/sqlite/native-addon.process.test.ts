import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

/**
 * better-sqlite3 12's Database and Statement derive from node::ObjectWrap, whose code is compiled into
 * the addon from the Node headers it was built against. Node 24.19's headers give it a destructor that
 * aborts the process ("RemoveEnvironmentCleanupHook ... (env) != nullptr") when the collection comes
 * from a GC an allocation started, which has no context entered (docs/decisions.md). Collections of
 * that kind happen any time in any process that lets a statement go (the server does, after its
 * migrations), so this runs some in a child on the Node line under test, with the addon it loads.
 */
const CHURN = `
  import Database from 'better-sqlite3';
  function churn(n) { let last; for (let i = 0; i < n; i++) last = { i, pair: [i, i + 1] }; return last; }
  for (let round = 0; round < 5; round++) {
    const db = new Database(':memory:');
    for (let i = 0; i < 1000; i++) db.prepare('SELECT 1').get();
    if (round % 2 === 0) db.close();
    churn(100_000);
  }
  console.log('collected');
`;

describe('the better-sqlite3 addon on this Node', () => {
  it('lets the GC collect statements and databases without aborting the process', () => {
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', CHURN], { encoding: 'utf8' });
    expect({ status: child.status, signal: child.signal, stdout: child.stdout, stderr: child.stderr }).toEqual({
      status: 0,
      signal: null,
      stdout: 'collected\n',
      stderr: '',
    });
  });
});
