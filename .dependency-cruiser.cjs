/**
 * Architecture rules, checked by `pnpm run depcruise` (part of `pnpm run lint`):
 *
 *   core (packages/core)  <-  persistence (packages/persistence-kysely)  <-  apps (apps/*)
 *   client (packages/client): alone, depends on none of them
 *
 * The core is the framework-free domain: no web framework, database driver, validation
 * library, logger or Node core module, and it knows nothing of the layers built on it.
 * Persistence may not reach into the apps. Nothing that ships may use a package's test support
 * (`src/testing`, the `@brand/<package>/testing` entries).
 *
 * Each "to" matches both a resolved path and a bare module name, because a package the
 * importing workspace does not declare cannot be resolved (pnpm does not hoist it) and
 * dependency-cruiser then reports the import under its plain name.
 */

/** Libraries that belong to the outer layers (adapters, HTTP, logging). */
const FRAMEWORK_MODULES = [
  'express',
  'express-rate-limit',
  'swagger-ui-express',
  'kysely',
  'pg',
  'better-sqlite3',
  'class-validator',
  'class-validator-jsonschema',
  'class-transformer',
  'pino',
  'pino-http',
];
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// "express", ".../node_modules/express/...", ".../node_modules/@types/express/..."
const frameworkModules = `(^|/node_modules/|^node_modules/)(@types/)?(${FRAMEWORK_MODULES.map(escape).join('|')})(/|$)`;

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'core-no-frameworks',
      severity: 'error',
      comment:
        'packages/core is framework-free: web, database, validation and logging libraries belong in persistence-kysely or apps.',
      from: { path: '^packages/core/src/' },
      to: { path: frameworkModules },
    },
    {
      name: 'core-no-node-builtins',
      severity: 'error',
      comment:
        'packages/core may not use Node core modules (fs, http, crypto, path, ...): take what you need through a port.',
      from: { path: '^packages/core/src/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'core-not-to-outer-layers',
      severity: 'error',
      comment: 'packages/core may not depend on persistence or apps: they depend on it, not the other way round.',
      from: { path: '^packages/core/' },
      to: { path: ['^packages/persistence-kysely/', '^apps/', '^@brand/(persistence-kysely|api)(/|$)'] },
    },
    {
      name: 'persistence-not-to-apps',
      severity: 'error',
      comment: 'packages/persistence-kysely may not depend on apps.',
      from: { path: '^packages/persistence-kysely/' },
      to: { path: ['^apps/', '^@brand/api(/|$)'] },
    },
    {
      name: 'client-standalone',
      severity: 'error',
      comment:
        'packages/client is published on its own for integrators: it may not import another workspace package or app (its types come from the OpenAPI document, generated into src/generated).',
      from: { path: '^packages/client/' },
      to: { path: ['^packages/(?!client/)', '^apps/', '^@brand/'] },
    },
    {
      name: 'production-not-to-test-support',
      severity: 'error',
      comment:
        'What ships may not use test support: packages/*/src/testing (`@brand/<package>/testing`) is for tests and benchmarks, and is not in the production builds.',
      from: { path: ['^packages/[^/]+/src/', '^apps/[^/]+/src/'], pathNot: '^packages/[^/]+/src/testing/' },
      to: { path: ['^packages/[^/]+/src/testing/', '^@brand/[^/]+/testing$'] },
    },
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'Modules that import each other cannot be understood, tested or moved one at a time: move what both need into a third module.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-orphans',
      severity: 'error',
      comment: 'A source module nothing imports is dead code (or an entry point missing from this list).',
      from: {
        orphan: true,
        pathNot: [
          '(^|/)\\.[^/]+\\.(c?js|json)$', // dot files (this one)
          '\\.d\\.ts$',
          '(^|/)(test|bench)/', // test files are run by jest, benchmarks by the bench script
          '\\.test\\.ts$',
          '(^|/)jest\\.config\\.c?js$',
          '^apps/api/src/(server|cli/main)\\.ts$', // processes' entry points
          '^packages/[^/]+/src/index\\.ts$', // packages' entry points
          '^packages/client/scripts/generate-types\\.js$', // `pnpm --filter @brand/client generate`
        ],
      },
      to: {},
    },
  ],
  options: {
    // Report imports of installed packages (the rules need them) but never descend into
    // them; skip build output entirely.
    doNotFollow: { path: '(^|/)node_modules/' },
    exclude: { path: '(^|/)(dist|coverage|\\.turbo)/' },
    // Count `import type` and other imports that vanish on compilation: they are still
    // dependencies of the design.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    // Resolve workspace packages the way TypeScript does (package "exports" with the
    // "types" condition -> src), so cross-package imports land on real source paths.
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['types', 'import', 'require', 'node', 'default'],
      mainFields: ['types', 'main'],
      extensions: ['.ts', '.d.ts', '.js', '.cjs', '.mjs', '.json'],
    },
    reporterOptions: {
      text: { highlightFocused: true },
    },
  },
};
