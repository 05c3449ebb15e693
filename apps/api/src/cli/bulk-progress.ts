import { SingleBar } from 'cli-progress';
import { BulkOperation } from '@brand/core';

/** Progress of an operation as the CLI shows it: where it is, and how fast it goes while watched. */
export interface BulkProgressFigures {
  processed: number;
  failed: number;
  total: number;
  /** Lines per second since the watch began; null before a line was done. */
  rate: number | null;
  /** Seconds until every line is done at that rate; null while there is no rate. */
  secondsLeft: number | null;
}

/**
 * Works out the rate and the time left from the operation's counters as they are read, without a
 * clock in the operation itself: the counters of the first read and when it was made are the
 * origin, so a resumed or already advanced operation still gives the rate of what this watch saw.
 */
export class BulkProgressWatch {
  private origin: { at: number; processed: number } | null = null;

  figures(operation: BulkOperation, now: number): BulkProgressFigures {
    this.origin ??= { at: now, processed: operation.processedLines };
    const done = operation.processedLines - this.origin.processed;
    const seconds = (now - this.origin.at) / 1000;
    const rate = done > 0 && seconds > 0 ? done / seconds : null;
    const left = operation.totalLines - operation.processedLines;
    return {
      processed: operation.processedLines,
      failed: operation.failedLines,
      total: operation.totalLines,
      rate,
      secondsLeft: rate === null ? null : left / rate,
    };
  }
}

/** `1h 02m`, `3m 05s`, `42s`: a duration for people. */
export function formatDuration(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = whole % 60;
  if (h > 0) return `${h}h ${String(m).padStart(2, '0')}m`;
  if (m > 0) return `${m}m ${String(s).padStart(2, '0')}s`;
  return `${s}s`;
}

/**
 * The bar `brand import` draws on a terminal (cli-progress): lines done of all, lines failed, the
 * rate and the time left, redrawn in place; nothing when the CLI is not on a terminal.
 */
export class BulkProgressBar {
  private readonly bar: SingleBar;
  private started = false;

  constructor(terminal: NodeJS.WritableStream) {
    this.bar = new SingleBar({
      stream: terminal,
      format: ' {bar} {percentage}% | {value}/{total} lines | {failed} failed | {rate} | {left}',
      barCompleteChar: '█',
      barIncompleteChar: '░',
      hideCursor: true,
      clearOnComplete: false,
    });
  }

  show(figures: BulkProgressFigures): void {
    const payload = {
      failed: figures.failed,
      rate: figures.rate === null ? '– lines/s' : `${Math.round(figures.rate)} lines/s`,
      left: figures.secondsLeft === null ? 'time left –' : `${formatDuration(figures.secondsLeft)} left`,
    };
    if (!this.started) {
      this.bar.start(figures.total, figures.processed, payload);
      this.started = true;
    } else this.bar.update(figures.processed, payload);
  }

  stop(): void {
    if (this.started) this.bar.stop();
  }
}
