module.exports = { ...require('../../tooling/config/jest.preset.js') };
