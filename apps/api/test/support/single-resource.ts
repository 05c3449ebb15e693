import request from 'supertest';
import { Integrator } from './integrator';
import { TestContext } from './test-app';

type Body = Record<string, unknown>;

/** One error object of a refusal, as far as the single-resource tests read it. */
export type ErrorObject = {
  status?: number;
  code: string;
  detail: string;
  source?: { pointer?: string; parameter?: string };
};

/** Each error of a refusal as [pointer or parameter, code, detail]. */
export const problems = (body: { errors: ErrorObject[] }) =>
  body.errors.map((e) => [e.source?.pointer ?? e.source?.parameter, e.code, e.detail]);

/** A body's addresses, matched by title (`address_title`), replacing or appending to the stored ones. */
export const addresses = (mode: 'replace' | 'append', ...list: Body[]): Body => ({
  addresses_sync_mode: mode,
  addresses_sync_key: 'address_title',
  addresses: list,
});

/**
 * The calls of a resource written one at a time on /v10 (`/v10/customers`: POST, GET and PATCH by
 * id, the list), for `who` (a function: the tests make a brand per test). `one` and `many` are the
 * answer's keys (`customer`, `customers`).
 */
export function singleResource(
  t: TestContext,
  who: () => Integrator,
  resource: { path: string; one: string; many: string },
) {
  const as = (caller: Integrator) => ({
    post: (body: Body) => request(t.server).post(resource.path).set(caller.headers).send(body),
    patch: (id: number | string, body: Body) =>
      request(t.server).patch(`${resource.path}/${id}`).set(caller.headers).send(body),
    get: (id: number | string, query = '') =>
      request(t.server).get(`${resource.path}/${id}${query}`).set(caller.headers),
  });
  const api = () => as(who());
  return {
    as,
    api,
    /** The resource as GET by id answers it (without includes unless asked); expects 200. */
    shown: async (id: number, query = ''): Promise<Body> => {
      const response = await api().get(id, query);
      expect(response.status).toBe(200);
      return response.body[resource.one] as Body;
    },
    /** The brand's resources as the list answers them; expects 200. */
    listed: async (query = ''): Promise<Body[]> => {
      const response = await request(t.server).get(`${resource.path}?limit=100${query}`).set(who().headers);
      expect(response.status).toBe(200);
      return response.body[resource.many] as Body[];
    },
    /** Creates one and expects 201; answers its id. */
    createdId: async (body: Body): Promise<number> => {
      const response = await api().post(body);
      expect(response.status).toBe(201);
      return (response.body[resource.one] as { id: number }).id;
    },
  };
}
