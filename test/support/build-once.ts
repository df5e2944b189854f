import { execFileSync } from 'node:child_process';

/** Brings dist/ up to date before the suite, as `npm start` would. */
export default function setup(): void {
  execFileSync(process.execPath, ['scripts/ensure-built.mjs'], { stdio: 'inherit' });
}
