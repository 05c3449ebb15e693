// One module registry per jest worker and project, instead of one per test file.
//
// jest gives every test file a fresh vm context and a fresh module registry, so every API test
// file loaded the whole app (Express, Kysely, the OpenAPI document, the validators) again, and
// opened its SQLite image again: that loading was half of a file's CPU time. Here the files that
// one worker runs for one project share the context and the registry: a module is evaluated
// once per worker, a test file still gets its own jest-circus state, hooks, expect state and
// console, and jest still reports file by file.
//
// What this gives up is the isolation between files of one worker: module-level state and
// globals outlive the file that set them. The suite keeps none that a later file could see (no
// module mocks, no process.env writes; spies are restored after each file). A file that needs
// a registry of its own says so in its first docblock with `@ownModuleRegistry` (e.g. a test
// that reads which modules the process has loaded); it then runs as jest runs every file.
const { createRequire } = require('node:module');

// The very classes jest would use: resolved from where jest's runner and config resolve them.
const fromJest = createRequire(require.resolve('jest'));
const fromCore = createRequire(fromJest.resolve('@jest/core'));
const Runtime = createRequire(fromCore.resolve('jest-runner'))('jest-runtime').default;
const NodeEnvironment = createRequire(fromCore.resolve('jest-config'))('jest-environment-node').default;

const { NEEDS_BUILD_PRAGMA, untilBuilt } = require('./jest-built-output');

const OWN_REGISTRY_PRAGMA = 'ownModuleRegistry';

/** Per project (jest's config id), the environment its shared files run in. */
const sharedEnvironments = new Map();
/** Per shared environment, its runtime (module registry). */
const sharedRuntimes = new WeakMap();

class SharedModulesEnvironment extends NodeEnvironment {
  constructor(config, context) {
    const pragmas = context.docblockPragmas ?? {};
    const ownRegistry = Object.hasOwn(pragmas, OWN_REGISTRY_PRAGMA);
    const existing = ownRegistry ? undefined : sharedEnvironments.get(config.projectConfig.id);
    // A worker runs one file at a time, so the file about to run is the one constructed last.
    const needsBuild = Object.hasOwn(pragmas, NEEDS_BUILD_PRAGMA);
    if (existing) {
      existing.needsBuild = needsBuild;
      return existing;
    }
    super(config, context);
    this.ownRegistry = ownRegistry;
    this.needsBuild = needsBuild;
    this.isSetUp = false;
    if (!ownRegistry) sharedEnvironments.set(config.projectConfig.id, this);
  }

  /** jest-circus awaits this: a file that runs the built output starts once it is built. */
  async handleTestEvent(event) {
    if (event.name === 'run_start' && this.needsBuild) await untilBuilt();
  }

  async setup() {
    if (this.isSetUp) return;
    this.isSetUp = true;
    await super.setup();
  }

  async teardown() {
    // A shared environment lives as long as its worker.
    if (this.ownRegistry) await super.teardown();
  }
}

class SharedModulesRuntime extends Runtime {
  constructor(config, environment, resolver, transformer, cacheFS, coverageOptions, testPath, globalConfig) {
    const shared = environment instanceof SharedModulesEnvironment && !environment.ownRegistry;
    const existing = shared ? sharedRuntimes.get(environment) : undefined;
    if (existing) {
      existing.startFile(testPath);
      return existing;
    }
    super(config, environment, resolver, transformer, cacheFS, coverageOptions, testPath, globalConfig);
    this.shared = shared;
    if (shared) sharedRuntimes.set(environment, this);
  }

  /** What a fresh runtime would hold for the next file: its path, and no test framework state. */
  startFile(testPath) {
    this._testPath = testPath;
    this.executor.testPath = testPath;
    this.esmLoader.testPath = testPath;
    this.testMainModule.reset();
    this.testState.state = 'loading';
    this.loggedReferenceErrors.clear();
    // jest-circus, expect and jest-snapshot are loaded again, so each file starts with their
    // state empty, as it does in a runtime of its own.
    this.registries.getInternalCjsRegistry().clear();
    // The setup files after the environment register hooks (afterEach) when they run: again per file.
    for (const path of this._config.setupFilesAfterEnv) this.registries.getActiveCjsRegistry().delete(path);
  }

  teardown() {
    if (!this.shared) {
      super.teardown();
      return;
    }
    // The modules stay for the worker's next file; a spy must not outlive the file that set it.
    this.restoreAllMocks();
  }
}

module.exports = { SharedModulesEnvironment, SharedModulesRuntime, OWN_REGISTRY_PRAGMA };
