// Regenerates openapi.json and src/generated/api.ts from the built API (apps/api/dist), in this
// process and without a network: the app is created over an empty in-memory SQLite database,
// which building the document never reads. Run through `pnpm --filter @brand/client generate`,
// which builds the API first so the document is never that of a stale build.
const { mkdirSync, writeFileSync } = require('node:fs');
const { createRequire } = require('node:module');
const { join } = require('node:path');
const { documentText, typesFromDocument } = require('./types-from-document');

const packageDir = join(__dirname, '..');
const apiDir = join(packageDir, '../../apps/api');

async function documentOfBuiltApi() {
  // Resolved as the API resolves them, so its own dependencies (persistence, pino) are found.
  const fromApi = createRequire(join(apiDir, 'package.json'));
  const { createApp, openApiDocumentOf } = fromApi('./dist/app.js');
  const { DEFAULT_CONFIG } = fromApi('./dist/config.js');
  const { nodeSecretHasher } = fromApi('./dist/infrastructure/node-secret-hasher.js');
  const { openStorage } = fromApi('@brand/persistence-kysely');
  const { systemClock } = fromApi('@brand/core');
  const pino = fromApi('pino');
  const storage = await openStorage(':memory:');
  try {
    const app = createApp({
      storage,
      clock: systemClock,
      hasher: nodeSecretHasher,
      logger: pino({ level: 'silent' }),
      config: { ...DEFAULT_CONFIG, logLevel: 'silent' },
    });
    return openApiDocumentOf(app);
  } finally {
    await storage.close();
  }
}

async function main() {
  const document = await documentOfBuiltApi();
  writeFileSync(join(packageDir, 'openapi.json'), documentText(document));
  mkdirSync(join(packageDir, 'src/generated'), { recursive: true });
  writeFileSync(join(packageDir, 'src/generated/api.ts'), await typesFromDocument(document));
  console.log('wrote packages/client/openapi.json and packages/client/src/generated/api.ts');
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
