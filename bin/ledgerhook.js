#!/usr/bin/env node
// Entry point for `npx ledgerhook`: the TypeScript sources run directly on Node 24 (type stripping).
// npx and npm scripts put the project's own Node 24 (the `node` devDependency) first on the path;
// an older Node that runs this file directly is told so, instead of failing on the first `.ts` import.
const major = Number(process.versions.node.split('.')[0]);
if (major < 24) {
  console.error(
    `ledgerhook: needs Node.js 24, this is ${process.version}; run it as \`npx ledgerhook …\` or \`npm run ledgerhook -- …\`, which use the project's Node 24`,
  );
  process.exit(1);
}
await import('../src/main.ts');
