import { Writable } from 'node:stream';
import { SpanKind } from '@opentelemetry/api';
import { InMemorySpanExporter, ReadableSpan } from '@opentelemetry/sdk-trace-node';
import pino from 'pino';
import request from 'supertest';
import { openTestStorage, testDialects } from '@brand/persistence-kysely/testing';
import { requestLogOf } from '../src/app';
import { OpenTelemetryTracing } from '../src/tracing/open-telemetry-tracing';
import { newCustomer } from './support/customers';
import { Integrator, createIntegrator } from './support/integrator';
import { buildApp, useTestApp } from './support/test-app';

/** The caller's span, as a `traceparent` names it (sampled). */
const CALLER = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7' };
const TRACEPARENT = `00-${CALLER.traceId}-${CALLER.spanId}-01`;

/** The JSON lines a logger wrote. */
function collectingLogger(): { logger: pino.Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  return { logger: pino({ level: 'info' }, sink), lines };
}

const childrenOf = (spans: ReadableSpan[], parent: ReadableSpan): ReadableSpan[] =>
  spans.filter((span) => span.parentSpanContext?.spanId === parent.spanContext().spanId);

for (const dialect of testDialects()) {
  describe(`tracing [${dialect}]`, () => {
    const exporter = new InMemorySpanExporter();
    const tracing = new OpenTelemetryTracing('brand-api-test', exporter);
    // The storage tells the tracing of its statements, as the server opens it.
    const t = useTestApp(dialect, {}, (d) => openTestStorage(d, { observer: tracing.storageObserver(d) }));
    const { logger, lines } = collectingLogger();
    let brand: Integrator;
    let app: ReturnType<typeof buildApp>;

    beforeAll(async () => {
      brand = await createIntegrator(t.storage, t.clock);
      app = buildApp(t.storage, t.clock, { tracing, logger });
    });
    afterAll(() => tracing.shutdown());
    beforeEach(() => exporter.reset());

    it("continues the caller's trace with a span per request and a child span per SQL statement, without bound values", async () => {
      const created = await request(app)
        .post('/v10/customers')
        .set(brand.headers)
        .set('traceparent', TRACEPARENT)
        .send(newCustomer('C-TRACE-1', { name: 'Ada Secretname' }));
      expect(created.status).toBe(201);
      await tracing.flush();

      const spans = exporter.getFinishedSpans();
      const requestSpans = spans.filter((span) => span.kind === SpanKind.SERVER);
      expect(requestSpans).toHaveLength(1);
      const requestSpan = requestSpans[0]!;
      expect(requestSpan.name).toBe('POST /v10/customers');
      expect(requestSpan.spanContext().traceId).toBe(CALLER.traceId);
      expect(requestSpan.parentSpanContext?.spanId).toBe(CALLER.spanId);
      expect(requestSpan.attributes).toMatchObject({
        'http.request.method': 'POST',
        'http.route': '/v10/customers',
        'url.path': '/v10/customers',
        'http.response.status_code': 201,
        'brand.id': brand.brandId,
      });
      expect(requestSpan.resource.attributes['service.name']).toBe('brand-api-test');

      const statements = childrenOf(spans, requestSpan);
      expect(statements.length).toBeGreaterThan(1);
      for (const statement of statements) {
        expect(statement.kind).toBe(SpanKind.CLIENT);
        expect(statement.spanContext().traceId).toBe(CALLER.traceId);
        expect(statement.attributes['db.system.name']).toBe(dialect === 'postgres' ? 'postgresql' : 'sqlite');
        // Within the request's time.
        expect(statement.startTime[0] * 1e9 + statement.startTime[1]).toBeGreaterThanOrEqual(
          requestSpan.startTime[0] * 1e9 + requestSpan.startTime[1],
        );
      }
      const texts = statements.map((statement) => String(statement.attributes['db.query.text']));
      const insert = statements.find((statement) =>
        /^insert into "customers"/i.test(String(statement.attributes['db.query.text'])),
      );
      expect(insert?.name).toBe('INSERT');
      expect(insert?.attributes['db.operation.name']).toBe('INSERT');
      // The statement's text with its placeholders: the customer's values stay out of the trace.
      expect(texts.join('\n')).not.toMatch(/Secretname|C-TRACE-1/);
    });

    it('puts the trace id in the log line and the request log row, and names an unmatched request by method', async () => {
      const listed = await request(app)
        .get('/v10/customers?limit=1')
        .set(brand.headers)
        .set('traceparent', TRACEPARENT);
      expect(listed.status).toBe(200);
      const missing = await request(app).get('/v10/no-such-thing').set(brand.headers);
      expect(missing.status).toBe(404);
      await tracing.flush();
      await requestLogOf(app).flush();

      const [listSpan, missingSpan] = ['GET /v10/customers', 'GET unmatched'].map((name) =>
        exporter.getFinishedSpans().find((span) => span.kind === SpanKind.SERVER && span.name === name),
      );
      expect(listSpan?.spanContext().traceId).toBe(CALLER.traceId);
      // Without a traceparent a request starts a trace of its own.
      expect(missingSpan?.parentSpanContext).toBeUndefined();
      expect(missingSpan?.spanContext().traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(missingSpan?.spanContext().traceId).not.toBe(CALLER.traceId);

      const line = lines.find((logged) => (logged['req'] as { id: string }).id === listed.headers['x-request-id']);
      expect(line).toMatchObject({ trace_id: CALLER.traceId, span_id: listSpan?.spanContext().spanId });

      const recorded = await t.storage.uow.run((tx) => tx.requestLogs.listForUser(brand.brandId, brand.userId, 10));
      const byRequestId = new Map(recorded.map((entry) => [entry.requestId, entry.traceId]));
      expect(byRequestId.get(listed.headers['x-request-id'] as string)).toBe(CALLER.traceId);
      expect(byRequestId.get(missing.headers['x-request-id'] as string)).toBe(missingSpan?.spanContext().traceId);
    });

    it('traces no statement outside a request', async () => {
      await t.storage.uow.run((tx) => tx.requestLogs.listForUser(brand.brandId, brand.userId, 1));
      await tracing.flush();
      expect(exporter.getFinishedSpans()).toEqual([]);
    });
  });
}
