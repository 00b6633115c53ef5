#!/usr/bin/env node
// Entry point for `npx ledgerhook`: the TypeScript sources run directly on Node 24 (type stripping).
import '../src/main.ts';
