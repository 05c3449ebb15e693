/**
 * @slow: among the longest files of the suite; started first (tooling/config/jest-sequencer.js).
 * Runs the built server, so it waits for the build (tooling/config/jest-built-output.js).
 *
 * @needsBuild
 */
import { mkdtempSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listCustomers } from '@brand/core';
import { openStorage } from '@brand/persistence-kysely';
import { openTestStorage, testDialects } from '@brand/persistence-kysely/testing';
import { startServerProcess } from './support/server-process';

for (const dialect of testDialects()) {
  describe(`server process [${dialect}]`, () => {
    jest.setTimeout(180_000);

    it('on SIGTERM finishes the request in flight, writes it, closes its kept-alive connection, and exits 0', async () => {
      // Postgres: a fresh database (dropped at the end); SQLite: a file, since another process opens it.
      const database = dialect === 'postgres' ? await openTestStorage('postgres') : null;
      const url = database?.url ?? join(mkdtempSync(join(tmpdir(), 'brand-shutdown-')), 'brand.sqlite');
      // A keep-alive timeout longer than the shutdown's 10 s grace: were the connection of the
      // request in flight kept open after its answer, the server would exit 1 when the grace ran out.
      const server = await startServerProcess(url, { KEEP_ALIVE_TIMEOUT_MS: '60000' });
      const agent = new Agent({ keepAlive: true });
      const { accessToken, appKey } = server.demo!;

      const body = JSON.stringify({
        customers: [{ customer_number: 'IN-FLIGHT', name: 'Sent during shutdown', currency: 'EUR' }],
      });
      const half = Math.floor(body.length / 2);
      const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request(
          {
            host: '127.0.0.1',
            port: server.port,
            method: 'POST',
            path: '/customers/sync',
            agent,
            headers: {
              'content-type': 'application/json',
              'content-length': Buffer.byteLength(body),
              authorization: `Bearer ${accessToken}`,
              'x-service-app-key': appKey,
              // The server answers 100 Continue once it has read the headers and handed the
              // request to the app: from then on the request is in flight, however busy the machine.
              expect: '100-continue',
            },
          },
          (res) => {
            let text = '';
            res.on('data', (c: Buffer) => (text += c.toString()));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
          },
        );
        req.on('error', reject);
        req.on('continue', () => {
          // Half the body, the signal, and the rest a moment later: the server must wait for it.
          req.write(body.slice(0, half));
          server.child.kill('SIGTERM');
          setTimeout(() => req.end(body.slice(half)), 300);
        });
        req.flushHeaders();
      });

      const answered = await response;
      expect(answered.status).toBe(200);
      expect(JSON.parse(answered.body)).toMatchObject({
        customers: [{ customer_number: 'IN-FLIGHT', action: 'created' }],
      });
      expect(await server.exited).toBe(0);
      agent.destroy();

      // The write survived the shutdown, and so did the request log (flushed before exit).
      const storage = await openStorage(url);
      try {
        const brand = await storage.uow.read((r) => r.brands.findFirst());
        const { page } = await listCustomers(
          { uow: storage.uow },
          {
            brandId: brand!.id,
            query: { filter_groups: [{ filters: [{ key: 'customer_number', value: 'IN-FLIGHT' }] }] },
          },
        );
        expect(page.items.map((c) => c.name)).toEqual(['Sent during shutdown']);
        const logged = await storage.uow.read((r) => r.requestLogs.listForUser(brand!.id, 1, 10));
        expect(logged.map((e) => `${e.method} ${e.path} ${e.status}`)).toContain('POST /customers/sync 200');
      } finally {
        await storage.close();
        await database?.close();
      }
    });
  });
}
