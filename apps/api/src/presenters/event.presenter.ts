import { DomainEvent, EVENT_TYPES } from '@brand/core';
import { Static, Type } from '@sinclair/typebox';
import { component, dateTime, oneOfValues } from '../http/wire-schema';
import { OrderSchema, presentOrder } from './order.presenter';

/** An event's public id: `evt_` and its number (ids are per platform, so the brand is not in it). */
export const eventPublicId = (id: number): string => `evt_${id}`;

/** The number in an event's public id, or null for anything that is not one. */
export function eventNumberOf(publicId: string | undefined): number | null {
  const match = /^evt_(\d{1,15})$/.exec(publicId ?? '');
  return match ? Number(match[1]) : null;
}

export const EventSchema = component(
  'Event',
  Type.Object({
    id: Type.String({ description: '`evt_` and a number; the same id is the `webhook-id` of its deliveries' }),
    type: oneOfValues(EVENT_TYPES),
    created_at: dateTime('When the change it announces committed'),
    data: Type.Object({
      object: Type.Union([OrderSchema], {
        description:
          'The resource as `GET` of it answered when the change committed (order events: the order with its lines; ' +
          'its timeline and export marks are not part of the event)',
      }),
    }),
  }),
);
export type EventWire = Static<typeof EventSchema>;

/** An event as the feed (and a webhook delivery) shows it. */
export function presentEvent(event: DomainEvent): EventWire {
  return {
    id: eventPublicId(event.id),
    type: event.type,
    created_at: event.createdAt,
    data: { object: presentOrder(event.object, { includeLines: true, exports: [] }) },
  };
}
