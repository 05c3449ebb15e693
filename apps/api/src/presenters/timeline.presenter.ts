import { TimelineEvent } from '@brand/core';

/** What happened to a document, oldest first. */
export interface TimelineEventWire {
  kind: string;
  note: string | null;
  /** The system that marked the document (kind `exported`); otherwise null. */
  system_id: string | null;
  user_id: number | null;
  created_at: string;
}

export function presentTimeline(events: readonly TimelineEvent[]): TimelineEventWire[] {
  return events.map((event) => ({
    kind: event.kind,
    note: event.note,
    system_id: event.systemId,
    user_id: event.userId,
    created_at: event.createdAt,
  }));
}
