import { NewTimelineEvent } from '@brand/core';
import { Static, Type, component, dateTime, integer, nullable, string } from '../http/wire-schema';

/** What happened to a document, oldest first. */
export const TimelineEventSchema = component(
  'TimelineEvent',
  Type.Object({
    kind: string(
      'created, approved, cancelled, shipment_created, delivered, booked, regulated, archived, exported, credited …',
    ),
    note: nullable(string()),
    system_id: nullable(string(), { description: 'For exported: the system that marked it' }),
    user_id: nullable(integer(), { description: 'The user whose token made the change' }),
    created_at: dateTime(),
  }),
);
export type TimelineEventWire = Static<typeof TimelineEventSchema>;

/** Entries as stored, or as just written (without ids, which the wire does not show). */
export function presentTimeline(events: readonly NewTimelineEvent[]): TimelineEventWire[] {
  return events.map((event) => ({
    kind: event.kind,
    note: event.note,
    system_id: event.systemId,
    user_id: event.userId,
    created_at: event.createdAt,
  }));
}
