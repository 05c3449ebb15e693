const Module = require('module');
const orig = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (request === '@brand/core') return '/tmp/build/packages/core/src/index.js';
  return orig.call(this, request, ...rest);
};
require('reflect-metadata');
const { productBatchFor } = require('/tmp/build/apps/api/test/zz-batch.js');
const { ProductSyncRequestDto } = require('/tmp/build/apps/api/src/dtos/product-sync.dto.js');
const { plainToInstance } = require('class-transformer');
const { validate } = require('class-validator');
async function time(label, mutate) {
  const batches = Array.from({ length: 20 }, (_, b) => productBatchFor(b * 100, b * 100 + 100).map(mutate));
  let best = Infinity;
  for (let round = 0; round < 5; round++) {
    const a = process.hrtime.bigint();
    for (const products of batches) {
      const dto = plainToInstance(ProductSyncRequestDto, { products });
      await validate(dto, { forbidUnknownValues: true, whitelist: false, validationError: { target: false, value: false } });
    }
    best = Math.min(best, Number(process.hrtime.bigint() - a) / 1e6);
  }
  console.log(label, best.toFixed(0), 'ms');
}
(async () => {
  await time('full', (p) => p);
  await time('no inventory', (p) => ({ ...p, variants: p.variants.map(({ inventory, ...v }) => v) }));
  await time('no prices', (p) => ({ ...p, variants: p.variants.map(({ prices, ...v }) => v) }));
  await time('no prices no inv', (p) => ({ ...p, variants: p.variants.map(({ prices, inventory, ...v }) => v) }));
  await time('no variants', (p) => ({ ...p, variants: [] }));
})();
