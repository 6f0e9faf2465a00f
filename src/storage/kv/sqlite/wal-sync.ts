/**
 * Durability off the event loop. With `synchronous=FULL` SQLite fsyncs the WAL inside every
 * commit, blocking the only thread for the disk's flush latency (a fifth of a busy server's time).
 * Instead the database runs with `synchronous=NORMAL` (no sync at commit; checkpoints and WAL
 * resets still sync) and each committed batch asks this for an `fdatasync` of the WAL file on
 * libuv's thread pool; the batch's callers are answered and its watch events published only when
 * the sync covering it completes. Acknowledged writes survive power loss exactly as with FULL.
 *
 * Syncs are coalesced: batches committed while one sync is in flight share the next one.
 */
import { closeSync, fdatasync, openSync } from 'node:fs';

export type DataSync = (fd: number, done: (err: NodeJS.ErrnoException | null) => void) => void;

interface Waiter {
  readonly resolve: () => void;
  readonly reject: (err: Error) => void;
}

export class WalSync {
  readonly #fd: number;
  readonly #datasync: DataSync;
  #inFlight = false;
  #waiting: Waiter[] = [];
  #idle: (() => void)[] = [];
  #closed = false;

  /** `walPath` must exist (SQLite creates it when WAL mode is set on a file database). */
  constructor(walPath: string, datasync: DataSync = fdatasync) {
    // fdatasync flushes the file, whichever descriptor names it: a read-only one suffices.
    this.#fd = openSync(walPath, 'r');
    this.#datasync = datasync;
  }

  /** Resolves when everything written to the WAL before this call is on stable storage. */
  sync(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.#waiting.push({ resolve, reject });
      if (!this.#inFlight) this.#start();
    });
  }

  /** Resolves when no sync is pending or in flight. */
  drained(): Promise<void> {
    if (!this.#inFlight && this.#waiting.length === 0) return Promise.resolve();
    return new Promise<void>((resolve) => this.#idle.push(resolve));
  }

  /** Closes the descriptor (after `drained()`). */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    closeSync(this.#fd);
  }

  #start(): void {
    const covered = this.#waiting;
    this.#waiting = [];
    this.#inFlight = true;
    this.#datasync(this.#fd, (err) => {
      this.#inFlight = false;
      for (const w of covered) {
        if (err === null) w.resolve();
        else w.reject(new Error(`fdatasync of the SQLite WAL failed: ${err.message}`, { cause: err }));
      }
      if (this.#waiting.length > 0) {
        this.#start();
        return;
      }
      for (const done of this.#idle.splice(0)) done();
    });
  }
}
