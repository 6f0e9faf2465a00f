/**
 * The audit log backend (upstream plugin/pkg/audit/log with lumberjack underneath, AM-17): one JSON
 * line per event appended to --audit-log-path (`-` is standard output). A file is rotated as
 * lumberjack rotates it: before a write would take it past --audit-log-maxsize megabytes (default
 * 100) it is renamed to `<name>-<UTC time 2006-01-02T15-04-05.000><ext>` and a new one started;
 * then backups beyond --audit-log-maxbackup (0: all kept) and older than --audit-log-maxage days
 * (0: any age) are removed.
 *
 * Writes never block the event loop: events are serialized when they happen and appended in order
 * by one asynchronous writer. Mode `blocking` (the v1.27 default) keeps every event, however far
 * the disk falls behind; `batch` keeps at most --audit-log-batch-buffer-size (10,000) waiting and
 * drops the ones beyond, as upstream's buffered backend does. A write error is logged and counted,
 * never thrown: the server keeps serving.
 */
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import type { AuditEvent, AuditSink } from './event.js';
import { observeAuditPluginError } from './metrics.js';

export type AuditLogMode = 'blocking' | 'batch';

export interface AuditLogOptions {
  /** A file, or `-` for standard output. */
  readonly path: string;
  /** Days to keep rotated files (0: no limit). */
  readonly maxAge?: number;
  /** Rotated files to keep (0: no limit). */
  readonly maxBackups?: number;
  /** Megabytes before rotation (0: lumberjack's default, 100). */
  readonly maxSize?: number;
  readonly mode?: AuditLogMode;
  /** Batch mode: events waiting to be written beyond which new ones are dropped (default 10,000). */
  readonly bufferSize?: number;
  /** Write and rotation errors, dropped events (default: ignored). */
  readonly onError?: (message: string) => void;
  /** The clock rotation names backups from (tests). */
  readonly now?: () => Date;
  /** Standard output's writer (tests). */
  readonly stdout?: (chunk: string) => void;
}

const megabyte = 1024 * 1024;
const defaultMaxSizeMB = 100;

/** lumberjack's backupTimeFormat, "2006-01-02T15-04-05.000", in UTC. */
function backupTime(d: Date): string {
  return d.toISOString().slice(0, 23).replace(/:/g, '-');
}

function parseBackupTime(s: string): number | undefined {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})\.(\d{3})$/.exec(s);
  if (m === null) return undefined;
  const t = Date.parse(`${m[1]}T${m[2]}:${m[3]}:${m[4]}.${m[5]}Z`);
  return Number.isNaN(t) ? undefined : t;
}

export class AuditLogBackend implements AuditSink {
  readonly #o: AuditLogOptions;
  readonly #maxBytes: number;
  readonly #bufferSize: number;
  #queue: string[] = [];
  #draining: Promise<void> | undefined;
  #file: FileHandle | undefined;
  #size = 0;
  #closed = false;
  #dropped = 0;
  #written = 0;

  constructor(o: AuditLogOptions) {
    this.#o = o;
    this.#maxBytes = (o.maxSize !== undefined && o.maxSize > 0 ? o.maxSize : defaultMaxSizeMB) * megabyte;
    this.#bufferSize = o.mode === 'batch' ? (o.bufferSize ?? 10_000) : Infinity;
  }

  /** Events not written (buffer full, write errors). */
  get dropped(): number {
    return this.#dropped;
  }

  /** Events written. */
  get written(): number {
    return this.#written;
  }

  /**
   * Creates the directory (0700) and the file (0600) if missing, as upstream's ensureLogFile, so a
   * path that cannot be written stops the server at start.
   */
  async open(): Promise<void> {
    if (this.#o.path === '-') return;
    await mkdir(dirname(this.#o.path), { recursive: true, mode: 0o700 });
    const f = await open(this.#o.path, 'a', 0o600);
    await f.close();
  }

  process(event: AuditEvent): boolean {
    if (this.#closed) return false;
    if (this.#queue.length >= this.#bufferSize) {
      this.#drop(1, 'audit buffer queue blocked', 'buffered');
      return false;
    }
    this.#queue.push(`${JSON.stringify(event)}\n`);
    this.#draining ??= this.#drain().finally(() => {
      this.#draining = undefined;
      // Events queued while the last write finished.
      if (this.#queue.length > 0 && !this.#closed) void this.flush();
    });
    return true;
  }

  /** Resolves when every event handed over so far is written (or failed). */
  async flush(): Promise<void> {
    while (this.#draining !== undefined || this.#queue.length > 0) {
      if (this.#draining === undefined)
        this.#draining = this.#drain().finally(() => (this.#draining = undefined));
      await this.#draining;
    }
  }

  /** Writes what is queued, then closes the file. */
  async close(): Promise<void> {
    await this.flush();
    this.#closed = true;
    await this.#file?.close().catch(() => undefined);
    this.#file = undefined;
  }

  #drop(n: number, why: string, plugin = 'log'): void {
    this.#dropped += n;
    observeAuditPluginError(plugin, n);
    this.#o.onError?.(why);
  }

  async #drain(): Promise<void> {
    while (this.#queue.length > 0) {
      const lines = this.#queue;
      this.#queue = [];
      if (this.#o.path === '-') {
        const write = this.#o.stdout ?? ((s: string) => void process.stdout.write(s));
        write(lines.join(''));
        this.#written += lines.length;
        continue;
      }
      try {
        await this.#writeLines(lines);
      } catch (err) {
        this.#drop(
          lines.length,
          `audit log write failed: ${err instanceof Error ? err.message : String(err)}`,
        );
        await this.#file?.close().catch(() => undefined);
        this.#file = undefined;
      }
    }
  }

  async #writeLines(lines: readonly string[]): Promise<void> {
    let chunk: Buffer[] = [];
    let chunkBytes = 0;
    let chunkLines = 0;
    const flush = async (): Promise<void> => {
      if (chunkBytes === 0) return;
      const f = await this.#openFile(0);
      await f.write(Buffer.concat(chunk, chunkBytes));
      this.#size += chunkBytes;
      this.#written += chunkLines;
      chunk = [];
      chunkBytes = 0;
      chunkLines = 0;
    };
    for (const line of lines) {
      const b = Buffer.from(line, 'utf8');
      if (b.byteLength > this.#maxBytes) {
        this.#drop(
          1,
          `audit log write failed: write length ${b.byteLength} exceeds maximum file size ${this.#maxBytes}`,
        );
        continue;
      }
      if (this.#file === undefined && chunkBytes === 0) await this.#openFile(b.byteLength);
      if (this.#size + chunkBytes + b.byteLength > this.#maxBytes) {
        await flush();
        await this.#rotate();
      }
      chunk.push(b);
      chunkBytes += b.byteLength;
      chunkLines++;
    }
    await flush();
  }

  /**
   * The current file, opened for appending (lumberjack openExistingOrNew): an existing file that
   * the next write would take past the limit is rotated first.
   */
  async #openFile(nextWrite: number): Promise<FileHandle> {
    if (this.#file !== undefined) return this.#file;
    let size: number | undefined;
    try {
      size = (await stat(this.#o.path)).size;
    } catch {
      size = undefined;
    }
    if (size !== undefined && size + nextWrite > this.#maxBytes) {
      await this.#rotate();
      return this.#file!;
    }
    await mkdir(dirname(this.#o.path), { recursive: true, mode: 0o700 });
    this.#file = await open(this.#o.path, 'a', 0o600);
    this.#size = size ?? 0;
    return this.#file;
  }

  /** Renames the current file to its backup name, starts a new one, then removes old backups. */
  async #rotate(): Promise<void> {
    await this.#file?.close().catch(() => undefined);
    this.#file = undefined;
    const path = this.#o.path;
    const ext = extname(path);
    const prefix = basename(path, ext);
    const now = (this.#o.now ?? (() => new Date()))();
    try {
      await rename(path, join(dirname(path), `${prefix}-${backupTime(now)}${ext}`));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    this.#file = await open(path, 'a', 0o600);
    this.#size = 0;
    await this.#removeOldBackups(now).catch((err: unknown) =>
      this.#o.onError?.(
        `audit log: removing old backups failed: ${err instanceof Error ? err.message : String(err)}`,
      ),
    );
  }

  /** lumberjack millRunOnce: newest first, keep maxBackups, then drop those older than maxAge days. */
  async #removeOldBackups(now: Date): Promise<void> {
    const maxBackups = this.#o.maxBackups ?? 0;
    const maxAge = this.#o.maxAge ?? 0;
    if (maxBackups === 0 && maxAge === 0) return;
    const path = this.#o.path;
    const dir = dirname(path);
    const ext = extname(path);
    const prefix = `${basename(path, ext)}-`;
    const backups: { name: string; time: number }[] = [];
    for (const name of await readdir(dir)) {
      if (!name.startsWith(prefix) || !name.endsWith(ext)) continue;
      const time = parseBackupTime(name.slice(prefix.length, name.length - ext.length));
      if (time !== undefined) backups.push({ name, time });
    }
    backups.sort((a, b) => b.time - a.time);
    let keep = backups;
    const remove: string[] = [];
    if (maxBackups > 0 && maxBackups < backups.length) {
      keep = backups.slice(0, maxBackups);
      remove.push(...backups.slice(maxBackups).map((b) => b.name));
    }
    if (maxAge > 0) {
      const cutoff = now.getTime() - maxAge * 24 * 3600 * 1000;
      for (const b of keep) if (b.time < cutoff) remove.push(b.name);
    }
    await Promise.all(remove.map((name) => rm(join(dir, name), { force: true })));
  }
}
