import 'reflect-metadata';
import { productBatchFor } from './zz-batch';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { ProductSyncRequestDto, toProductSyncItem } from '../src/dtos/product-sync.dto';
import { CustomerSyncRequestDto } from '../src/dtos/customer-sync.dto';

jest.setTimeout(600_000);
it('times the dto', async () => {
  const batches = Array.from({ length: 20 }, (_, b) => productBatchFor(b * 100, b * 100 + 100));
  for (let round = 0; round < 2; round++) {
    let tr = 0, va = 0, map = 0;
    for (const products of batches) {
      const a = process.hrtime.bigint();
      const dto = plainToInstance(ProductSyncRequestDto, { products });
      const b = process.hrtime.bigint();
      const errors = await validate(dto, { forbidUnknownValues: true, whitelist: false, validationError: { target: false, value: false } });
      if (errors.length) throw new Error(JSON.stringify(errors).slice(0, 500));
      const c = process.hrtime.bigint();
      dto.products.map(toProductSyncItem);
      const d = process.hrtime.bigint();
      tr += Number(b - a) / 1e6; va += Number(c - b) / 1e6; map += Number(d - c) / 1e6;
    }
    console.log(`round ${round}: transform ${tr.toFixed(0)}ms validate ${va.toFixed(0)}ms map ${map.toFixed(0)}ms`);
  }
  const customers = Array.from({ length: 1000 }, (_, i) => ({ customer_number: `C${i}`, name: 'x', currency: 'EUR', addresses_sync_mode: 'replace', addresses_sync_key: 'address_title', addresses: [{ title: 'a', name: 'b', address: 'c', zip: '1', city: 'x', country: 'NL' }] }));
  const a = process.hrtime.bigint();
  const dto = plainToInstance(CustomerSyncRequestDto, { customers });
  const b = process.hrtime.bigint();
  await validate(dto);
  console.log(`customers 1000: transform ${Number(b - a) / 1e6}ms validate ${Number(process.hrtime.bigint() - b) / 1e6}ms`);
});
