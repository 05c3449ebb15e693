import { DomainError, eventListDefinition, getEvent, listEvents } from '@brand/core';
import { Surface } from '../http/route';
import { listOf, wrapped } from '../http/wire-schema';
import { listRequest, listResponse } from '../listing/list-request';
import { EventSchema, eventNumberOf, presentEvent } from '../presenters/event.presenter';
import { RouterDeps } from './router-deps';

/**
 * The events feed (DESIGN §10): what happened to the brand's data, oldest first, for integrations
 * that poll. Reading it takes `webhooks:read`, the area of the events pushed to webhook endpoints.
 */
export function eventsV10Router(deps: RouterDeps): Surface<'current'> {
  return new Surface('v10-events', 'current', ['/v10'])
    .route({
      method: 'get',
      path: '/v10/events',
      summary: 'List events',
      description:
        'Oldest first; follow next_cursor to keep up (sort by id DESC reads the newest first). Filters: type, ' +
        `created_at. Events are kept for at least 30 days.`,
      tag: 'Events',
      scopes: ['webhooks:read'],
      list: eventListDefinition,
      status: 200,
      response: { description: 'A page of events', schema: listOf('events', EventSchema) },
      handler: async ({ principal, req }) => {
        const result = await listEvents(deps, await listRequest(req, principal.brandId, deps.cursors));
        return listResponse('events', result, eventListDefinition, deps.cursors, presentEvent);
      },
    })
    .route({
      method: 'get',
      path: '/v10/events/:id',
      summary: 'Get an event',
      tag: 'Events',
      scopes: ['webhooks:read'],
      status: 200,
      response: { description: 'The event', schema: wrapped('event', EventSchema) },
      handler: async ({ principal, params }) => {
        const id = eventNumberOf(params['id']);
        if (id === null) throw DomainError.notFound('event', params['id'] ?? '');
        return { event: presentEvent(await getEvent(deps, { brandId: principal.brandId, id })) };
      },
    });
}
