import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listCustomers } from '@brand/core';
import { openStorage, openTestStorage, testDialects } from '@brand/persistence-kysely';

// The real server process (built by the test command before the tests run), so that signals,
// ports and process exit are the ones production sees.
const SERVER = join(__dirname, '..', 'dist', 'server.js');

interface RunningServer {
  child: ChildProcess;
  port: number;
  accessToken: string;
  appKey: string;
  exited: Promise<number | null>;
}

async function startServer(databaseUrl: string): Promise<RunningServer> {
  if (!existsSync(SERVER)) throw new Error(`${SERVER} is missing: build the API first (pnpm build)`);
  const port = 31000 + Math.floor(Math.random() * 4000);
  const child = spawn(process.execPath, [SERVER], {
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port), LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let output = '';
  const credentials = await new Promise<{ accessToken: string; appKey: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 20_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const curl = /Bearer ([^"]+)" -H "X-Service-App-Key: ([^"]+)"/.exec(output);
      if (curl && output.includes('API listening')) {
        clearTimeout(timer);
        resolve({ accessToken: curl[1]!, appKey: curl[2]! });
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    void exited.then((code) => reject(new Error(`server exited with ${code}:\n${output}`)));
  });
  return { child, port, ...credentials, exited };
}

for (const dialect of testDialects()) {
  describe(`server process [${dialect}]`, () => {
    jest.setTimeout(60_000);

    it('on SIGTERM finishes the request in flight, writes it, and exits 0', async () => {
      // Postgres: a fresh database (dropped at the end); SQLite: a file, since another process opens it.
      const database = dialect === 'postgres' ? await openTestStorage('postgres') : null;
      const url = database?.url ?? join(mkdtempSync(join(tmpdir(), 'brand-shutdown-')), 'brand.sqlite');
      const server = await startServer(url);

      const body = JSON.stringify({ customers: [{ customer_number: 'IN-FLIGHT', name: 'Sent during shutdown', currency: 'EUR' }] });
      const half = Math.floor(body.length / 2);
      const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request(
          {
            host: '127.0.0.1', port: server.port, method: 'POST', path: '/customers/sync',
            headers: {
              'content-type': 'application/json', 'content-length': Buffer.byteLength(body),
              authorization: `Bearer ${server.accessToken}`, 'x-service-app-key': server.appKey,
            },
          },
          (res) => {
            let text = '';
            res.on('data', (c: Buffer) => (text += c.toString()));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
          },
        );
        req.on('error', reject);
        // Half the body now: the request is in flight when the signal arrives.
        req.write(body.slice(0, half));
        setTimeout(() => {
          server.child.kill('SIGTERM');
          setTimeout(() => req.end(body.slice(half)), 300);
        }, 300);
      });

      const answered = await response;
      expect(answered.status).toBe(200);
      expect(JSON.parse(answered.body)).toMatchObject({ customers: [{ customer_number: 'IN-FLIGHT', action: 'created' }] });
      expect(await server.exited).toBe(0);

      // The write survived the shutdown, and so did the request log (flushed before exit).
      const storage = await openStorage(url);
      try {
        const brand = await storage.uow.read((r) => r.brands.findFirst());
        const { page } = await listCustomers({ uow: storage.uow }, { brandId: brand!.id, query: { filter_groups: [{ filters: [{ key: 'customer_number', value: 'IN-FLIGHT' }] }] } });
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
