import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeDataDir } from '../db/data-dir.ts';

/**
 * A key the embedded mode generates on first start and keeps in DATA_DIR (mode 0600), so it
 * survives restarts. `generated` says whether this call made it.
 */
export function keepInDataDir(
  dataDir: string,
  name: string,
  create: () => string,
): { value: string; generated: boolean } {
  const file = join(dataDir, name);
  if (existsSync(file)) return { value: readFileSync(file, 'utf8').trim(), generated: false };
  makeDataDir(dataDir);
  const value = create();
  try {
    writeFileSync(file, `${value}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    // Another process (a CLI command beside the server) made it first: use theirs.
    if ((error as { code?: string }).code === 'EEXIST')
      return { value: readFileSync(file, 'utf8').trim(), generated: false };
    throw error;
  }
  chmodSync(file, 0o600);
  return { value, generated: true };
}
