// The code of the root README's section "Integrating with @brand/client", block for block: the
// typecheck proves it compiles against the client's types, and test/readme-examples.test.ts
// proves the README shows exactly this (with `@brand/client` for `../src`). Never run.
import { createServer } from 'node:http';
import { BrandApiError, createClient, verifyWebhook, WebhookVerificationError } from '../src';

declare const webshopChannel: string;
declare function saveInErp(invoice: { id: number; invoice_number: number }): Promise<void>;

export async function createAClient() {
  const brand = createClient({
    baseUrl: 'https://api.brand.example',
    accessToken: process.env.BRAND_TOKEN, // Authorization: Bearer …
    appKey: process.env.BRAND_APP_KEY, // X-Service-App-Key
  });

  const { data } = await brand.POST('/v10/webhook-endpoints', {
    body: { url: 'https://erp.example.com/hooks/brand', events: ['*'] },
  });
  console.log('store this secret:', data.webhook_endpoint.secret);
  return brand;
}

export async function aWriteWithRetries(brand: ReturnType<typeof createClient>) {
  try {
    // Sent again on a lost connection, a 429 or a 503, with the same Idempotency-Key: one order.
    const placed = await brand.POST('/v10/order-channels/{publicId}/orders', {
      params: { path: { publicId: webshopChannel } }, // the channel's public_id (GET /v10/order-channels)
      body: { order: { customer_number: 'C-SHOP', reference: 'WEB-1001', lines: [{ sku: 'TEE-S', quantity: 2 }] } },
      idempotencyKey: 'order-WEB-1001', // your own key: the same order after your process restarted
    });
    console.log(placed.data.order.order_number, placed.etag);
  } catch (error) {
    if (!(error instanceof BrandApiError)) throw error;
    console.error(error.status, error.code, error.pointer, error.requestId); // 422 validation_failed /order/lines/0/sku
  }
}

export async function aListWalk(brand: ReturnType<typeof createClient>) {
  for await (const invoice of brand.paginate('/v10/invoices/export', { params: { query: { system_id: 'erp' } } })) {
    await saveInErp(invoice);
    await brand.POST('/v10/invoices/mark-as-exported', {
      body: { invoices: [{ invoice_id: invoice.id, system_id: 'erp' }] },
    });
  }
}

export function aWebhookReceiver() {
  const secrets = [process.env.BRAND_WEBHOOK_SECRET ?? '']; // during a rotation: [newSecret, oldSecret]
  const handled = new Set<string>(); // keep it in your database: deliveries are at least once

  createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      try {
        const event = verifyWebhook(secrets, req.headers, Buffer.concat(chunks));
        if (!handled.has(event.id)) {
          handled.add(event.id);
          if (event.type === 'order.created') console.log('new order', event.data.object.order_number);
        }
        res.writeHead(204).end();
      } catch (error) {
        res.writeHead(error instanceof WebhookVerificationError ? 400 : 500).end();
      }
    });
  }).listen(8080);
}
