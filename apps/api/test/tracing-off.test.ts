/**
 * The test reads which modules the process has loaded, so it must not share a module registry with
 * files that trace (tooling/config/jest-shared-modules.js).
 *
 * @ownModuleRegistry
 */
import request from 'supertest';
import { oneTestDialect } from '@brand/persistence-kysely/testing';
import { requestLogOf } from '../src/app';
import { loadConfig } from '../src/config';
import { tracingFor } from '../src/tracing/load-tracing';
import { Integrator, createIntegrator } from './support/integrator';
import { buildApp, useTestApp } from './support/test-app';

/** The OpenTelemetry modules this process has loaded. */
const loadedOpenTelemetryModules = (): string[] =>
  Object.keys(require.cache).filter((path) => path.includes('@opentelemetry'));

// Its own file: a test that traces loads the OpenTelemetry modules into the file's module registry.
for (const dialect of oneTestDialect()) {
  describe(`tracing off, the default [${dialect}]`, () => {
    const t = useTestApp(dialect);
    let brand: Integrator;

    beforeAll(async () => {
      brand = await createIntegrator(t.storage, t.clock);
    });

    it('loads no OpenTelemetry module, and records no trace id although the caller sent a traceparent', async () => {
      const tracing = tracingFor(loadConfig({}).tracing);
      expect(tracing).toBeUndefined();
      const app = buildApp(t.storage, t.clock);
      const listed = await request(app)
        .get('/v10/customers')
        .set(brand.headers)
        .set('traceparent', '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01');
      expect(listed.status).toBe(200);
      await requestLogOf(app).flush();

      expect(loadedOpenTelemetryModules()).toEqual([]);
      const recorded = await t.storage.uow.run((tx) => tx.requestLogs.listForUser(brand.brandId, brand.userId, 10));
      expect(recorded.find((entry) => entry.requestId === listed.headers['x-request-id'])?.traceId).toBeNull();

      // The check above would see them: an endpoint loads the SDK (nothing is exported without spans).
      const on = tracingFor({ endpoint: 'http://127.0.0.1:9', serviceName: 'brand-api' });
      expect(on).toBeDefined();
      await on?.shutdown();
      expect(loadedOpenTelemetryModules()).toEqual(
        expect.arrayContaining([
          expect.stringContaining('sdk-trace-base'),
          expect.stringContaining('exporter-trace-otlp-http'),
        ]),
      );
    });
  });
}
