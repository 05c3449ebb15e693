import { createBrand } from '@brand/core';
import { CliCommand } from '../cli-command';

interface CreateBrandOptions {
  name: string;
  currency: string;
}

/** `brand create-brand --name <name> --currency <code>` */
export const createBrandCommand: CliCommand<CreateBrandOptions> = {
  name: 'create-brand',
  summary: 'Register a brand (tenant) with its base currency',
  configure(command) {
    command
      .requiredOption('--name <name>', 'the brand name')
      .requiredOption('--currency <code>', 'ISO 4217 base currency, e.g. EUR');
  },
  async run({ storage, clock }, options) {
    const brand = await createBrand({ uow: storage.uow, clock }, { name: options.name, currency: options.currency });
    return {
      json: { brand_id: brand.id, name: brand.name, currency: brand.currency, created_at: brand.createdAt },
      text: `Created brand ${brand.id} "${brand.name}" (${brand.currency}).`,
    };
  },
};
