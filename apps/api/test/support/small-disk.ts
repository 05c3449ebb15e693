import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A real, small filesystem (tmpfs) that a test can fill to the last byte and free again, so a
 * full disk is the kernel's ENOSPC and not a simulation. Mounting needs root, which the test
 * machines and CI have; `canMountSmallDisk()` says whether this process may.
 */
export class SmallDisk {
  private fillers = 0;

  private constructor(readonly folder: string) {}

  static mount(sizeMiB: number): SmallDisk {
    const folder = mkdtempSync(join(tmpdir(), 'brand-small-disk-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMiB}m`, 'tmpfs', folder]);
    return new SmallDisk(folder);
  }

  /** Writes a filler file until the disk refuses another byte; returns its path (delete it to free the space). */
  fill(): string {
    const path = join(this.folder, `filler-${(this.fillers += 1)}`);
    const fd = openSync(path, 'w');
    try {
      for (const chunk of [1 << 20, 1 << 12, 1]) {
        const bytes = Buffer.alloc(chunk);
        for (;;) {
          try {
            writeSync(fd, bytes);
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code === 'ENOSPC') break;
            throw error;
          }
        }
      }
    } finally {
      closeSync(fd);
    }
    return path;
  }

  free(fillerPath: string): void {
    unlinkSync(fillerPath);
  }

  unmount(): void {
    execFileSync('umount', ['-l', this.folder]);
    rmSync(this.folder, { recursive: true, force: true });
  }
}

export function canMountSmallDisk(): boolean {
  return process.getuid?.() === 0;
}
