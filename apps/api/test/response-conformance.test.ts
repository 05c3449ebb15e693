import express from 'express';
import request from 'supertest';
import { checkResponsesAgainstDocument, takeResponseViolations } from './support/response-conformance';

// The check every API test relies on must itself fail on a response off the document; this file
// drives it with a tiny app and a hand-written document, and takes the violations itself so the
// shared afterEach sees none.

const document = {
  openapi: '3.1.0',
  paths: {
    '/things/{id}': {
      get: {
        responses: {
          '200': {
            description: 'A thing',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/ThingAnswer' } } },
          },
          '404': { $ref: '#/components/responses/NotFound' },
        },
      },
    },
    '/things/export': {
      get: { responses: { '200': { description: 'Acknowledged, without a body' } } },
    },
  },
  components: {
    schemas: {
      ThingAnswer: {
        type: 'object',
        required: ['thing'],
        properties: { thing: { $ref: '#/components/schemas/Thing' } },
      },
      Thing: {
        type: 'object',
        required: ['id', 'status'],
        properties: {
          id: { type: 'integer' },
          status: { type: 'string', enum: ['open', 'closed'] },
          note: { type: ['string', 'null'] },
          meta: { type: 'object', additionalProperties: true },
        },
      },
      ErrorEnvelope: {
        type: 'object',
        required: ['errors'],
        properties: {
          errors: {
            type: 'array',
            items: { type: 'object', required: ['code'], properties: { code: { type: 'string' } } },
          },
        },
      },
    },
    responses: {
      NotFound: {
        description: 'Not found',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
      },
    },
  },
};

function appAnswering(answer: (req: express.Request, res: express.Response) => void): express.Application {
  const app = express();
  app.locals['openApiDocument'] = () => document;
  app.get('/things/export', answer);
  app.get('/things/:id', answer);
  app.use(answer);
  checkResponsesAgainstDocument(app);
  return app;
}

async function violationsOf(app: express.Application, path: string): Promise<string[]> {
  await request(app).get(path);
  return takeResponseViolations();
}

describe('the response check against the OpenAPI document', () => {
  it('accepts a response the document describes, nested references and nulls included', async () => {
    const app = appAnswering((_req, res) => {
      res.json({ thing: { id: 1, status: 'open', note: null, meta: { anything: [1, 2] } } });
    });
    expect(await violationsOf(app, '/things/1')).toEqual([]);
  });

  it('names a property the document does not declare, however deep', async () => {
    const app = appAnswering((_req, res) => res.json({ thing: { id: 1, status: 'open', colour: 'red' } }));
    const violations = await violationsOf(app, '/things/1');
    expect(violations).toEqual([expect.stringContaining('/thing has the undocumented property "colour"')]);
  });

  it('refuses a value of another type or outside the enum', async () => {
    const app = appAnswering((_req, res) => res.json({ thing: { id: '1', status: 'archived' } }));
    const [violation] = await violationsOf(app, '/things/1');
    expect(violation).toContain('/thing/id must be integer');
    expect(violation).toContain('/thing/status must be equal to one of the allowed values');
  });

  it('refuses a status the operation does not document', async () => {
    const app = appAnswering((_req, res) => res.status(409).json({ errors: [{ code: 'conflict' }] }));
    expect(await violationsOf(app, '/things/1')).toEqual([
      expect.stringContaining('status 409 is not documented for GET /things/{id} (documented: 200, 404)'),
    ]);
  });

  it('checks an error against the reusable response the operation names', async () => {
    const good = appAnswering((_req, res) => res.status(404).json({ errors: [{ code: 'not_found' }] }));
    expect(await violationsOf(good, '/things/7')).toEqual([]);
    const bad = appAnswering((_req, res) => res.status(404).json({ error: 'not found' }));
    expect(await violationsOf(bad, '/things/7')).toEqual([expect.stringContaining('undocumented property "error"')]);
  });

  it('takes a literal path segment before a parameter, and refuses a body where none is declared', async () => {
    const app = appAnswering((_req, res) => res.status(200).end());
    expect(await violationsOf(app, '/things/export')).toEqual([]);
    const talkative = appAnswering((_req, res) => res.status(200).json({ thing: 1 }));
    expect(await violationsOf(talkative, '/things/export')).toEqual([
      expect.stringContaining('the document declares no body for 200'),
    ]);
  });

  it('requires the error envelope on a path no operation documents', async () => {
    const good = appAnswering((_req, res) => res.status(404).json({ errors: [{ code: 'route_not_found' }] }));
    expect(await violationsOf(good, '/nowhere')).toEqual([]);
    const bad = appAnswering((_req, res) => res.status(200).json({ ok: true }));
    expect(await violationsOf(bad, '/nowhere')).toEqual([
      expect.stringContaining('no operation is documented for this method and path'),
    ]);
  });
});
