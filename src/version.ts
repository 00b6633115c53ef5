import { readFileSync } from 'node:fs';

/** The package version, sent in the user-agent of notifications and the OpenAPI document. */
export const VERSION: string = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version;
