import { accessSync, constants, mkdirSync } from 'node:fs';
import { ConfigError } from '../config.ts';

// Why DATA_DIR cannot be this process's folder: a file in the way, the permissions, or a read-only
// file system (systemd's ProtectSystem=strict without ReadWritePaths). Settings to correct, which
// starting again does not; a full disk (ENOSPC) may clear by itself, so it stays an error.
const UNUSABLE_FOLDER = ['EEXIST', 'ENOTDIR', 'EACCES', 'EPERM', 'EROFS'];

/** Makes DATA_DIR if it is missing; a ConfigError says why it cannot be written to. */
export function makeDataDir(dataDir: string): void {
  try {
    mkdirSync(dataDir, { recursive: true });
    accessSync(dataDir, constants.W_OK);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code !== 'string' || !UNUSABLE_FOLDER.includes(code)) throw error;
    const why = code === 'EEXIST' || code === 'ENOTDIR' ? 'a file is in the way' : (error as Error).message;
    throw new ConfigError(`DATA_DIR ${dataDir} cannot be the embedded database's folder: ${why}`);
  }
}
