import { DocumentType, ExportMark, NewTimelineEvent, TimelineEvent } from './document.entities';

/**
 * The marks external systems leave on the documents they imported ("exported to system X at …").
 */
export interface ExportMarkRepository {
  /**
   * Records each mark, replacing an earlier mark of the same (document, system): marking twice
   * leaves one row, with the later time and note.
   */
  mark(marks: ExportMark[]): Promise<void>;
  /** Every mark of the given documents, by system, oldest first. */
  marksOf(brandId: number, documentType: DocumentType, documentIds: number[]): Promise<ExportMark[]>;
}

/** The timeline of every document: what happened to it, when and by whom. */
export interface TimelineRepository {
  append(events: NewTimelineEvent[]): Promise<void>;
  /** The events of one document, oldest first. */
  eventsOf(brandId: number, documentType: DocumentType, documentId: number): Promise<TimelineEvent[]>;
}

/** The documents module's repositories; the declaration below adds them to `Repositories`. */
export interface DocumentRepositories {
  exportMarks: ExportMarkRepository;
  timeline: TimelineRepository;
}

declare module '../shared/unit-of-work.ports' {
  interface Repositories extends DocumentRepositories {}
}

declare module '../shared/sequences.ports' {
  /** The documents module's tables that draw ids from `IdGenerator`. */
  interface EntityKinds {
    timeline_events: true;
  }
}
