const Module = require('module');
const orig = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (request === '@brand/core') return '/tmp/build/packages/core/src/index.js';
  if (request === '@brand/persistence-kysely') return '/tmp/build/packages/persistence-kysely/src/index.js';
  return orig.call(this, request, ...rest);
};
require('reflect-metadata');
const { productBatchFor } = require('/tmp/build/apps/api/test/zz-batch.js');
const { validateBody } = require('/tmp/build/apps/api/src/http/validate-dto.js');
const { ProductSyncRequestDto, toProductSyncItem } = require('/tmp/build/apps/api/src/dtos/product-sync.dto.js');
const { plainToInstance } = require('class-transformer');
const { validate } = require('class-validator');
(async () => {
  const batches = Array.from({ length: 20 }, (_, b) => productBatchFor(b * 100, b * 100 + 100));
  for (let round = 0; round < 4; round++) {
    let tr = 0, va = 0;
    for (const products of batches) {
      const a = process.hrtime.bigint();
      const dto = plainToInstance(ProductSyncRequestDto, { products });
      const b = process.hrtime.bigint();
      await validate(dto, { forbidUnknownValues: true, whitelist: false, validationError: { target: false, value: false } });
      const c = process.hrtime.bigint();
      tr += Number(b - a) / 1e6; va += Number(c - b) / 1e6;
    }
    console.log(`round ${round}: transform ${tr.toFixed(0)}ms validate ${va.toFixed(0)}ms`);
  }
})();
