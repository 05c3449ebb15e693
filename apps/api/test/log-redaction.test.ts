import { Writable } from 'node:stream';
import express from 'express';
import pino from 'pino';
import request from 'supertest';
import { RequestLogEntry, TokenVerifier } from '@brand/core';
import { testDialects } from '@brand/persistence-kysely/testing';
import { requestLogOf } from '../src/app';
import { Integrator, createIntegrator } from './support/integrator';
import { buildApp, useTestApp } from './support/test-app';

/** The app's real pino output, line by line, as a log shipper would read it from stdout. */
function capturedLogger(): { logger: pino.Logger; text: () => string; lines: () => Array<Record<string, unknown>> } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString('utf8'));
      done();
    },
  });
  const logger = pino({ level: 'info' }, stream);
  const text = (): string => chunks.join('');
  return {
    logger,
    text,
    lines: () =>
      text()
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

/** pino-http writes a request's line when the response finishes; give the stream a turn to take it. */
const settled = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Every way a query string may name the access token; the first ones authenticate, all must be redacted. */
function spellings(token: string): Array<{ name: string; query: string }> {
  return [
    { name: 'the literal name', query: `access_token=${token}` },
    { name: 'an encoded underscore', query: `access%5Ftoken=${token}` },
    { name: 'a lower-case encoding', query: `access%5ftoken=${token}` },
    { name: 'an encoded first letter', query: `%61ccess_token=${token}` },
    {
      name: 'every character encoded',
      query: `${[...'access_token'].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('')}=${token}`,
    },
    { name: 'upper case', query: `ACCESS_TOKEN=${token}` },
    { name: 'mixed case and encoding', query: `Access%5FToken=${token}` },
    { name: 'a second encoding', query: `access%255Ftoken=${token}` },
    { name: 'an array bracket', query: `access_token[]=${token}` },
    { name: 'an encoded array bracket', query: `access_token%5B%5D=${token}` },
    { name: 'an indexed bracket', query: `access_token[0]=${token}` },
    { name: 'a nested bracket', query: `filter[access_token]=${token}` },
    { name: 'repetition', query: `access_token=${token}&access_token=${token}` },
    { name: 'a place among other parameters', query: `limit=5&access%5Ftoken=${token}&page=0` },
    { name: 'a semicolon before it', query: `limit=5;access_token=${token}` },
  ];
}

for (const dialect of testDialects()) {
  describe(`access token redaction [${dialect}]`, () => {
    const t = useTestApp(dialect);
    const captured = capturedLogger();
    let app: express.Application;
    let integrator: Integrator;

    const requestLogOfUser = (who: Integrator): Promise<RequestLogEntry[]> =>
      t.storage.uow.read((r) => r.requestLogs.listForUser(who.brandId, who.userId, 100));

    beforeAll(async () => {
      app = buildApp(t.storage, t.clock, { logger: captured.logger });
      integrator = await createIntegrator(t.storage, t.clock);
    });

    afterAll(async () => {
      await requestLogOf(app).flush();
    });

    it('authenticates with the underscore percent-encoded, as the query parser decodes names', async () => {
      const response = await request(app)
        .get(`/v10/customers?access%5Ftoken=${integrator.accessToken}`)
        .set('X-Service-App-Key', integrator.appKey);
      expect(response.status).toBe(200);
    });

    for (const { name, query } of spellings('{token}')) {
      it(`keeps the token out of the request's log line when it is sent with ${name}`, async () => {
        const spelled = query.replaceAll('{token}', integrator.accessToken);
        const requestId = `redaction-${name.replace(/[^a-z]+/g, '-')}`;
        await request(app)
          .get(`/v10/customers?${spelled}`)
          .set('X-Service-App-Key', integrator.appKey)
          .set('X-Request-Id', requestId);
        await settled();

        const lines = captured
          .lines()
          .filter((entry) => (entry['req'] as { id?: string } | undefined)?.id === requestId);
        expect(lines).toHaveLength(1);
        expect((lines[0]!['req'] as { url: string }).url).toContain('[redacted]');
        expect(JSON.stringify(lines)).not.toContain(integrator.accessToken);
      });
    }

    it('keeps the token out of the error line of a request that failed on our side', async () => {
      const failing: TokenVerifier = {
        verify: async () => {
          throw new Error('the token store is down');
        },
      };
      const errorApp = buildApp(t.storage, t.clock, { logger: captured.logger, tokenVerifier: failing });
      const response = await request(errorApp)
        .get(`/v10/customers?access%5Ftoken=${integrator.accessToken}`)
        .set('X-Service-App-Key', integrator.appKey);
      await settled();

      expect(response.status).toBe(500);
      const line = captured
        .lines()
        .find(
          (entry) =>
            entry['level'] === 50 && (entry['req'] as { url?: string } | undefined)?.url?.startsWith('/v10/customers'),
        );
      expect(line).toMatchObject({
        err: { message: 'the token store is down' },
        req: { url: '/v10/customers?access%5Ftoken=[redacted]' },
      });
      expect(JSON.stringify(line)).not.toContain(integrator.accessToken);
    });

    it('keeps the token out of the request log stored in the database', async () => {
      await request(app)
        .get(`/v10/customers?Access%5FToken=x&access%5Ftoken=${integrator.accessToken}`)
        .set('X-Service-App-Key', integrator.appKey);
      await request(app)
        .get(`/v10/customers?access%5Ftoken=${integrator.accessToken}`)
        .set('X-Service-App-Key', integrator.appKey);
      await requestLogOf(app).flush();

      const entries = await requestLogOfUser(integrator);
      expect(entries.length).toBeGreaterThan(0);
      expect(entries.every((entry) => entry.path === '/v10/customers')).toBe(true);
      expect(JSON.stringify(entries)).not.toContain(integrator.accessToken);
    });

    it('wrote no line anywhere in the log that carries the token', () => {
      expect(captured.lines().length).toBeGreaterThan(spellings('').length);
      expect(captured.text()).not.toContain(integrator.accessToken);
    });
  });
}
