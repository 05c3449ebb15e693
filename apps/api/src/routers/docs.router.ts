import { RequestHandler } from 'express';
import swaggerUi from 'swagger-ui-express';
import { JsonSchema, Surface } from '../http/route';
import { Type } from '../http/wire-schema';

const DOCUMENT_PATH = '/openapi.json';

/** Swagger UI's page refers to its assets relatively, so it must be served at /docs/ (with the slash). */
const redirectToTrailingSlash: RequestHandler = (req, res, next) => {
  if (req.method === 'GET' && req.originalUrl.split('?')[0] === '/docs') res.redirect(301, '/docs/');
  else next();
};

/** The OpenAPI document and Swagger UI (served from the swagger-ui-dist package, not a CDN). Open to anyone. */
export function docsRouter(deps: { document: () => JsonSchema }): Surface<'none'> {
  return new Surface('docs', 'none', [DOCUMENT_PATH, '/docs'])
    .route({
      method: 'get',
      path: DOCUMENT_PATH,
      summary: 'This OpenAPI document',
      tag: 'Meta',
      scopes: [],
      status: 200,
      response: {
        description: 'OpenAPI 3.1 document',
        schema: Type.Unsafe<JsonSchema>({ type: 'object', additionalProperties: true }),
      },
      handler: async () => deps.document(),
    })
    .use(
      '/docs',
      redirectToTrailingSlash,
      ...swaggerUi.serveFiles(undefined, { swaggerUrl: DOCUMENT_PATH }),
      swaggerUi.setup(undefined, { swaggerUrl: DOCUMENT_PATH, customSiteTitle: 'Brand API reference' }),
    );
}
