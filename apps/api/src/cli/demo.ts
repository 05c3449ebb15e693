import {
  ALL_SCOPES,
  AddressInput,
  Brand,
  Clock,
  createApiApp,
  createBrand,
  createCustomerGroup,
  createDrop,
  createOrderChannel,
  createClaimCause,
  createReturnPortal,
  DomainError,
  placeOrder,
  ProductSyncItem,
  syncProducts,
  createPaymentTerms,
  createUser,
  CustomerSyncItem,
  issueAccessToken,
  PasswordHasher,
  Scope,
  SecretHasher,
  SupplierSyncItem,
  syncCustomers,
  syncSuppliers,
  UnitOfWork,
  User,
} from '@brand/core';
import { Storage } from '@brand/persistence-kysely';

/** The ports the demo seed runs its use cases with. */
export interface DemoSeedDeps {
  uow: UnitOfWork;
  clock: Clock;
  hasher: SecretHasher;
  passwordHasher: PasswordHasher;
}

/** What a person needs to call the API or log in as the demo brand; the secrets are shown once, here. */
export interface DemoCredentials {
  brandId: number;
  brandName: string;
  userId: number;
  /** The demo user's e-mail address, with which they log in. */
  email: string;
  /** The demo user's random password: printed once, stored only as a hash. */
  password: string;
  appId: number;
  clientId: string;
  appKey: string;
  tokenId: number;
  accessToken: string;
  expiresAt: string;
  scopes: Scope[];
  /** One entry per seed step, e.g. "5 customers with addresses". */
  seeded: string[];
}

/** Where a seed step adds its data. Steps find what earlier steps made by its codes. */
export interface DemoSeedContext {
  deps: DemoSeedDeps;
  brand: Brand;
  admin: User;
}

/**
 * One kind of demo data, added through its use case (never by writing rows directly), so the
 * demo always passes the same rules as real data. Returns a short summary of what it added.
 */
export interface DemoSeedStep {
  name: string;
  seed(context: DemoSeedContext): Promise<string>;
}

function address(
  title: string,
  name: string,
  street: string,
  zip: string,
  city: string,
  country: string,
): AddressInput {
  return { title, name, address: street, address2: null, zip, city, region: null, country, remoteErpId: null };
}

const customerGroups: DemoSeedStep = {
  name: 'customer groups',
  async seed({ deps, brand }) {
    const groups = [
      { code: 'RETAIL', name: 'Retail (own stores and webshop)' },
      { code: 'WHOLESALE', name: 'Wholesale (boutiques and department stores)' },
    ];
    for (const group of groups) await createCustomerGroup(deps, { brandId: brand.id, ...group });
    return `${groups.length} customer groups`;
  },
};

const paymentTerms: DemoSeedStep = {
  name: 'payment terms',
  async seed({ deps, brand }) {
    const terms = [
      { code: 'NET30', name: 'Net 30 days', days: 30 },
      { code: 'NET14', name: 'Net 14 days', days: 14 },
      { code: 'PREPAID', name: 'Payment in advance', days: 0 },
    ];
    for (const term of terms) await createPaymentTerms(deps, { brandId: brand.id, ...term });
    return `${terms.length} payment terms`;
  },
};

const customers: DemoSeedStep = {
  name: 'customers',
  async seed({ deps, brand }) {
    const wholesale = { customerGroup: { code: 'WHOLESALE' }, paymentTerms: { code: 'NET30' }, discountPercentage: 10 };
    const items: CustomerSyncItem[] = [
      {
        customerNumber: 'C-1001',
        name: 'Maison Lumière',
        currency: 'EUR',
        email: 'achats@maison-lumiere.example',
        vatNumber: 'FR40303265045',
        ...wholesale,
        addresses: {
          mode: 'replace',
          key: 'address_title',
          addresses: [
            address('Store', 'Maison Lumière', '12 Rue de Turenne', '75004', 'Paris', 'FR'),
            address('Warehouse', 'Maison Lumière Logistique', '8 Avenue des Entrepôts', '93200', 'Saint-Denis', 'FR'),
          ],
        },
      },
      {
        customerNumber: 'C-1002',
        name: 'Modehaus Berger',
        currency: 'EUR',
        email: 'einkauf@modehaus-berger.example',
        vatNumber: 'DE811907980',
        ...wholesale,
        addresses: {
          mode: 'replace',
          key: 'address_title',
          addresses: [address('Store', 'Modehaus Berger GmbH', 'Sendlinger Straße 24', '80331', 'München', 'DE')],
        },
      },
      {
        customerNumber: 'C-1003',
        name: 'Concept Store Jordaan',
        currency: 'EUR',
        email: 'inkoop@jordaan-concept.example',
        customerGroup: { code: 'WHOLESALE' },
        paymentTerms: { code: 'NET14' },
        discountPercentage: 5,
        addresses: {
          mode: 'replace',
          key: 'address_title',
          addresses: [address('Store', 'Concept Store Jordaan B.V.', 'Westerstraat 101', '1015 LZ', 'Amsterdam', 'NL')],
        },
      },
      {
        customerNumber: 'C-1004',
        name: 'Covent Garden Edit',
        currency: 'GBP',
        email: 'buying@coventgarden-edit.example',
        eoriNumber: 'GB123456789000',
        ...wholesale,
        addresses: {
          mode: 'replace',
          key: 'address_title',
          addresses: [address('Store', 'Covent Garden Edit Ltd', '14 Floral Street', 'WC2E 9DH', 'London', 'GB')],
        },
      },
      {
        customerNumber: 'C-2001',
        name: 'Webshop',
        currency: 'EUR',
        email: 'webshop@demo-brand.example',
        customerGroup: { code: 'RETAIL' },
        paymentTerms: { code: 'PREPAID' },
        addresses: {
          mode: 'replace',
          key: 'address_title',
          addresses: [address('Fulfilment', 'Demo Brand Webshop', 'Logistiekweg 5', '5928 RT', 'Venlo', 'NL')],
        },
      },
    ];
    await syncCustomers(deps, { brandId: brand.id, customers: items });
    return `${items.length} customers with addresses`;
  },
};

const suppliers: DemoSeedStep = {
  name: 'suppliers',
  async seed({ deps, brand }) {
    const items: SupplierSyncItem[] = [
      {
        supplierNumber: 'S-01',
        name: 'Tessitura Como',
        currency: 'EUR',
        email: 'orders@tessitura-como.example',
        addresses: {
          mode: 'replace',
          key: 'address_title',
          addresses: [address('Mill', 'Tessitura Como S.r.l.', 'Via Borgovico 33', '22100', 'Como', 'IT')],
        },
      },
      {
        supplierNumber: 'S-02',
        name: 'Porto Knitwear',
        currency: 'EUR',
        email: 'production@porto-knitwear.example',
        addresses: {
          mode: 'replace',
          key: 'address_title',
          addresses: [address('Factory', 'Porto Knitwear Lda', 'Rua do Almada 210', '4050-032', 'Porto', 'PT')],
        },
      },
      {
        supplierNumber: 'S-03',
        name: 'Izmir Denim Atelier',
        currency: 'USD',
        email: 'export@izmir-denim.example',
        addresses: {
          mode: 'replace',
          key: 'address_title',
          addresses: [
            address(
              'Atelier',
              'Izmir Denim Atelier A.Ş.',
              'Atatürk Organize Sanayi Bölgesi 10003 Sk.',
              '35620',
              'İzmir',
              'TR',
            ),
          ],
        },
      },
    ];
    await syncSuppliers(deps, { brandId: brand.id, suppliers: items });
    return `${items.length} suppliers`;
  },
};

/** The demo syncs no image URLs; a fetcher that refuses keeps the demo off the network. */
const NO_IMAGES = {
  fetcher: {
    fetch: async () => {
      throw new DomainError('image_download_failed', 'the demo downloads no images');
    },
  },
  blobs: { put: async () => '', get: async () => null, delete: async () => undefined },
};

const catalog: DemoSeedStep = {
  name: 'catalog',
  async seed({ deps, brand, admin }) {
    await createDrop(deps, { brandId: brand.id, code: 'SS27', name: 'Spring/Summer 2027' });
    const sizes = ['S', 'M', 'L'];
    const product = (
      itemNumber: string,
      name: string,
      color: string,
      eur: [number, number],
      gbp: [number, number],
      top: string,
      sub: string,
      supplier: string,
    ): ProductSyncItem => ({
      itemNumber,
      name,
      description: `${name} in ${color.toLowerCase()}.`,
      categories: { mode: 'replace', categories: [{ topCategory: top, subCategory: sub, createIfMissing: true }] },
      suppliers: {
        mode: 'replace',
        suppliers: [{ supplierNumber: supplier, primary: true, leadTimeType: 'weeks', leadTimeFrom: 6, leadTimeTo: 8 }],
      },
      variants: sizes.map((size, i) => ({
        sku: `${itemNumber}-${color.slice(0, 3).toUpperCase()}-${size}`,
        ean: `87123450${itemNumber.replace(/\D/g, '').padStart(4, '0')}${i}`,
        attributes: { color, size },
        prices: {
          EUR: { salesPrice: eur[0], recSalesPrice: eur[1] },
          GBP: { salesPrice: gbp[0], recSalesPrice: gbp[1] },
        },
        drops: { mode: 'replace', drops: [{ code: 'SS27' }] },
        inventory: [{ quantity: 12 - i * 4, text: 'demo opening stock' }],
      })),
    });
    const items = [
      product('1001', 'Linen Shirt', 'White', [39.5, 89.95], [34, 79], 'Men', 'Shirts', 'S-01'),
      product('1002', 'Merino Crew Knit', 'Navy', [54, 119.95], [47, 105], 'Men', 'Knitwear', 'S-02'),
      product('2001', 'Wide Leg Denim', 'Indigo', [48.75, 109.95], [42, 95], 'Women', 'Denim', 'S-03'),
      product('2002', 'Silk Slip Dress', 'Sand', [72, 159.95], [63, 139], 'Women', 'Dresses', 'S-01'),
    ];
    await syncProducts({ ...deps, images: NO_IMAGES }, { brandId: brand.id, userId: admin.id, products: items });
    return `${items.length} products with ${items.length * sizes.length} variants, prices in EUR and GBP, stock and a drop`;
  },
};

const orders: DemoSeedStep = {
  name: 'orders',
  async seed({ deps, brand, admin }) {
    const wholesale = await createOrderChannel(deps, { brandId: brand.id, name: 'Wholesale ERP', orderType: 'b2b' });
    const webshop = await createOrderChannel(deps, {
      brandId: brand.id,
      name: 'Webshop',
      orderType: 'b2c',
      autoApprove: true,
    });
    await placeOrder(deps, {
      brandId: brand.id,
      userId: admin.id,
      channelPublicId: wholesale.publicId,
      order: {
        customerNumber: 'C-1001',
        reference: 'PO-2027-001',
        lines: [
          { sku: '1001-WHI-M', quantity: 4 },
          { sku: '2001-IND-S', quantity: 2 },
        ],
      },
    });
    await placeOrder(deps, {
      brandId: brand.id,
      userId: admin.id,
      channelPublicId: webshop.publicId,
      order: {
        customerNumber: 'C-2001',
        reference: 'WEB-10001',
        email: 'shopper@example.com',
        lines: [{ sku: '2002-SAN-S', quantity: 1 }],
      },
    });
    return `order channels "Wholesale ERP" (B2B, public id ${wholesale.publicId}) and "Webshop" (B2C, approves automatically, public id ${webshop.publicId}) with an order each`;
  },
};

const returnsReference: DemoSeedStep = {
  name: 'returns reference data',
  async seed({ deps, brand }) {
    await createClaimCause(deps, { brandId: brand.id, code: 'damaged', name: 'Damaged on arrival' });
    await createClaimCause(deps, { brandId: brand.id, code: 'too_small', name: 'Too small' });
    // One portal integrations can use (custom) and the platform's own (service), so both kinds exist to try.
    const custom = await createReturnPortal(deps, { brandId: brand.id, name: 'Webshop returns', type: 'custom' });
    await createReturnPortal(deps, {
      brandId: brand.id,
      name: 'Customer service',
      type: 'service',
      requiresClaimCauses: true,
    });
    return `claim causes "damaged" and "too_small", return portals "Webshop returns" (custom, public id ${custom.publicId}) and "Customer service" (service)`;
  },
};

/**
 * The brand's demo data, in order. A later step may rely on what an earlier one made (customers
 * name the groups and terms by code), so new kinds of data (catalog, channel, portals) go in
 * after what they refer to.
 */
export const DEMO_SEED_STEPS: readonly DemoSeedStep[] = [
  customerGroups,
  paymentTerms,
  customers,
  suppliers,
  catalog,
  orders,
  returnsReference,
];

/**
 * Creates a demo brand "Demo Brand" (EUR) with an admin user who can log in, an API app, a token
 * with every scope, and the data of `steps`. Every call makes a new brand; the returned secrets
 * (password, app key, token) are the only copy.
 * @example const demo = await seedDemo({ uow: storage.uow, clock: systemClock, hasher, passwordHasher });
 */
export async function seedDemo(
  deps: DemoSeedDeps,
  steps: readonly DemoSeedStep[] = DEMO_SEED_STEPS,
): Promise<DemoCredentials> {
  const brand = await createBrand(deps, { name: 'Demo Brand', currency: 'EUR' });
  // Every demo brand's admin logs in with an address of their own (login e-mails are unique), and
  // a random password: a demo reachable over a network must not open with a password from the README.
  const password = deps.hasher.randomSecret();
  const admin = await createUser(deps, {
    brandId: brand.id,
    email: `admin-${brand.id}@demo-brand.example`,
    name: 'Demo Admin',
    password,
  });
  const { app, appKey } = await createApiApp(deps, { brandId: brand.id, name: 'Demo integration' });
  const { token, accessToken } = await issueAccessToken(deps, { userId: admin.id, appId: app.id, scopes: ALL_SCOPES });
  const seeded: string[] = [];
  for (const step of steps) seeded.push(await step.seed({ deps, brand, admin }));
  return {
    brandId: brand.id,
    brandName: brand.name,
    userId: admin.id,
    email: admin.email,
    password,
    appId: app.id,
    clientId: app.clientId,
    appKey,
    tokenId: token.id,
    accessToken,
    expiresAt: token.expiresAt,
    scopes: token.scopes,
    seeded,
  };
}

/** A ready-to-paste request that lists the demo brand's customers. */
export function demoCurlLine(credentials: Pick<DemoCredentials, 'accessToken' | 'appKey'>, baseUrl: string): string {
  return `curl -H "Authorization: Bearer ${credentials.accessToken}" -H "X-Service-App-Key: ${credentials.appKey}" ${baseUrl.replace(/\/+$/, '')}/v10/customers`;
}

/** Lines telling a person what the demo holds and how to call the API with it. */
export function describeDemo(credentials: DemoCredentials, baseUrl: string): string[] {
  return [
    `Demo brand "${credentials.brandName}" (id ${credentials.brandId}): ${credentials.seeded.join(', ')}.`,
    `User ${credentials.userId}, API app ${credentials.appId} (OAuth client id ${credentials.clientId}), token ${credentials.tokenId} with every scope, valid until ${credentials.expiresAt}.`,
    `Log in as ${credentials.email} with the password ${credentials.password} (shown only now).`,
    `Try it: ${demoCurlLine(credentials, baseUrl)}`,
  ];
}

/** A name no real shared secret uses: its first writer is the one process that seeds the demo. */
const DEMO_SEED_CLAIM = 'demo-seed-claim';

/**
 * First start: on a database without any brand, seeds the demo and logs a ready `curl` line;
 * otherwise does nothing and returns null. Several processes may start at once on one empty
 * Postgres, so they first race to write a shared claim and only its writer seeds (a seed that
 * fails half-way is therefore not retried on the next start; run `pnpm brand demo` instead).
 */
export async function seedDemoIfEmpty(deps: {
  storage: Storage;
  clock: Clock;
  hasher: SecretHasher;
  passwordHasher: PasswordHasher;
  log: (line: string) => void;
  baseUrl: string;
}): Promise<DemoCredentials | null> {
  const { storage, clock, hasher, passwordHasher, log, baseUrl } = deps;
  if (await storage.uow.read((repositories) => repositories.brands.findFirst())) return null;
  const claim = hasher.randomSecret();
  if ((await storage.secrets.getOrCreate(DEMO_SEED_CLAIM, () => claim)) !== claim) return null;
  const credentials = await seedDemo({ uow: storage.uow, clock, hasher, passwordHasher });
  log('The database was empty, so a demo brand was created.');
  for (const line of describeDemo(credentials, baseUrl)) log(line);
  return credentials;
}
