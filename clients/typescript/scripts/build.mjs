// Builds dist/: ESM JavaScript and declarations, by the repository's tsc. The sources import with
// `.ts` (they run as they are on Node 24); tsc rewrites that in the JavaScript, and this rewrites it
// in the declarations, so a consumer's TypeScript of any version resolves them.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const dist = join(root, 'dist');
rmSync(dist, { recursive: true, force: true });
execFileSync('tsc', ['-p', join(root, 'tsconfig.json')], { stdio: 'inherit' });
for (const entry of readdirSync(dist, { recursive: true })) {
  const file = join(dist, String(entry));
  if (!file.endsWith('.d.ts')) continue;
  const text = readFileSync(file, 'utf8');
  writeFileSync(file, text.replace(/(from\s+'\.{1,2}\/[^']+)\.ts'/g, "$1.js'"));
}
