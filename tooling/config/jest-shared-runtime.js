// The module runtime of every project: see jest-shared-modules.js.
module.exports = require('./jest-shared-modules').SharedModulesRuntime;
