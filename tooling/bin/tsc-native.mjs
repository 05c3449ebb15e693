#!/usr/bin/env node
// `tsc-native`: the TypeScript 7 compiler (the native port), which builds and typechecks the
// workspace about five times faster than TypeScript 6. It is installed under the alias
// `typescript-7` because the `typescript` package name (and its `tsc` bin) stays on 6.x: ts-jest
// and typescript-eslint need TypeScript's JavaScript API, which 7.0 does not have yet.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);
const packageDir = dirname(require.resolve('typescript-7/package.json'));
await import(pathToFileURL(join(packageDir, 'lib/tsc.js')).href);
