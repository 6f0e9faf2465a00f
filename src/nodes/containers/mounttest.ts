/**
 * agnhost `mounttest` on a simulated node: it stats, creates and reads files of the container's
 * volumes and prints what it found, in agnhost's words (test/images/agnhost/mounttest). The files
 * are the pod's (pod-files.ts): emptyDir and hostPath contents, and what the kubelet writes into
 * ConfigMap, Secret, downward API and projected volumes, with their modes and owners. A path whose
 * answer the node cannot know (a file that may come with the image) makes the run unknowable.
 */
import type { JsonObject } from '../../util/json.js';
import { objAt } from '../json.js';
import type { ContainerRun, FileEvent } from './container-run.js';
import { normalize } from './pod-files.js';
import type { PodFiles } from './pod-files.js';
import type { MounttestFlags, Program } from './program.js';
import { goQuote } from './field-path.js';
import { identityOf } from './identity.js';

/** The run cannot be known (the caller falls back to the default behaviour). */
export class MounttestUnknowable extends Error {}

/** A Go syscall error, as os.PathError prints it: `open /p: permission denied`. */
class FsError extends Error {}

const enoent = 'no such file or directory';
const initialContent = 'mount-tester new file\n';
/** statfs f_type of the filesystems a simulated node reports. */
const ext4Magic = 61267;
const overlayMagic = 2035054128;

const setgid = 0o2000;
const sticky = 0o1000;

interface Stat {
  readonly dir: boolean;
  /** Permission bits with setgid and sticky. */
  readonly mode: number;
  readonly uid: number;
  readonly gid: number;
  readonly content?: string;
}

/** Go's os.FileMode String: type letters (d, g for setgid, t for sticky), then rwxrwxrwx. */
export function goFileMode(dir: boolean, mode: number): string {
  let s = '';
  if (dir) s += 'd';
  if ((mode & setgid) !== 0) s += 'g';
  if ((mode & sticky) !== 0) s += 't';
  if (s === '') s = '-';
  const rwx = 'rwxrwxrwx';
  for (let i = 0; i < 9; i++) s += (mode & (1 << (8 - i))) !== 0 ? rwx.charAt(i) : '-';
  return s;
}

/** Who the container's processes run as (agnhost's image runs as root), for permission checks. */
interface Who {
  readonly uid: number;
  readonly groups: ReadonlySet<number>;
}

function identity(pod: JsonObject, container: JsonObject): Who {
  const id = identityOf(pod, container);
  return { uid: id.uid, groups: new Set(id.groups) };
}

function allowed(who: Who, st: Stat, bit: 4 | 2): boolean {
  if (who.uid === 0) return true;
  const shift = who.uid === st.uid ? 6 : who.groups.has(st.gid) ? 3 : 0;
  return ((st.mode >> shift) & bit) !== 0;
}

/** The files a mounttest run sees and writes, at a time since the pod's start. */
class MountFs {
  readonly #files: PodFiles;
  readonly #container: JsonObject;
  readonly #who: Who;
  /** Files this run created: their metadata (the shared stores hold only content). */
  readonly #created = new Map<string, Stat>();
  readonly #events: FileEvent[];

  constructor(files: PodFiles, pod: JsonObject, container: JsonObject, events: FileEvent[]) {
    this.#files = files;
    this.#container = container;
    this.#who = identity(pod, container);
    this.#events = events;
  }

  /** os.Stat of `path` at absolute time `at`; undefined: it does not exist. */
  stat(path: string, at: number): Stat | undefined {
    const created = this.#created.get(normalize(path));
    const place = this.#files.place(this.#container, path);
    if ('opaque' in place) throw new MounttestUnknowable(`${path} is in a ${place.opaque}`);
    const fsGroup = this.#files.fsGroup;
    if ('api' in place) {
      const files = place.api.filesAt(at);
      if (files === undefined) throw new MounttestUnknowable(`${path}: volume not set up`);
      const f = files.get(place.key);
      if (f !== undefined) return { dir: false, mode: f.mode, uid: f.uid, gid: f.gid, content: f.content };
      const prefix = place.key === '/' ? '/' : `${place.key}/`;
      if (place.mountRoot || place.key === '/')
        // The volume is a tmpfs (1777) made group-owned by fsGroup (setgid).
        return {
          dir: true,
          mode: 0o777 | sticky | (fsGroup === undefined ? 0 : setgid),
          uid: 0,
          gid: fsGroup ?? 0,
        };
      if ([...files.keys()].some((k) => k.startsWith(prefix)))
        return { dir: true, mode: 0o755 | (fsGroup === undefined ? 0 : setgid), uid: 0, gid: fsGroup ?? 0 };
      return undefined;
    }
    if (created !== undefined) return created;
    if (place.store === undefined) throw new MounttestUnknowable(`${path} may come with the image`);
    const content = place.store.get(place.key);
    if (place.emptyDir !== undefined && (place.key === '/' || place.mountRoot === true)) {
      // emptyDir: 0777, a tmpfs keeps its sticky bit, fsGroup adds setgid.
      const mode = 0o777 | (place.emptyDir.memory ? sticky : 0) | (fsGroup === undefined ? 0 : setgid);
      return { dir: true, mode, uid: 0, gid: fsGroup ?? 0 };
    }
    if (place.emptyDir === undefined && place.mountRoot === true)
      throw new MounttestUnknowable(`${path}: a host directory`);
    if (content !== undefined) {
      const gid = place.emptyDir !== undefined ? (fsGroup ?? 0) : 0;
      return { dir: false, mode: 0o644, uid: 0, gid, content };
    }
    const prefix = `${place.key}/`;
    if ([...place.store.keys()].some((k) => k.startsWith(prefix)))
      return { dir: true, mode: 0o755, uid: 0, gid: 0 };
    if (place.emptyDir === undefined) throw new MounttestUnknowable(`${path}: a host file`);
    return undefined;
  }

  /** os.ReadFile. */
  read(path: string, at: number): string {
    const st = this.stat(path, at);
    if (st === undefined) throw new FsError(`open ${path}: ${enoent}`);
    if (!allowed(this.#who, st, 4)) throw new FsError(`open ${path}: permission denied`);
    if (st.dir) throw new FsError(`read ${path}: is a directory`);
    return st.content ?? '';
  }

  /** statfs f_type. */
  fsType(path: string, at: number): string {
    if (this.stat(path, at) === undefined) throw new FsError(enoent);
    const place = this.#files.place(this.#container, path);
    if ('api' in place) return 'tmpfs';
    if ('opaque' in place) throw new MounttestUnknowable(path);
    if (place.emptyDir !== undefined) return place.emptyDir.memory ? 'tmpfs' : String(ext4Magic);
    return String(place.store === undefined ? overlayMagic : ext4Magic);
  }

  /** os.WriteFile with the perm (the umask is 0). */
  write(path: string, perm: number, at: number): void {
    const key = normalize(path);
    const place = this.#files.place(this.#container, path);
    if ('opaque' in place) throw new MounttestUnknowable(`${path} is in a ${place.opaque}`);
    const readOnlyRoot = objAt(this.#container, 'securityContext')?.['readOnlyRootFilesystem'] === true;
    if ('api' in place || place.readOnly === true || (place.store === undefined && readOnlyRoot))
      throw new FsError(`open ${path}: read-only file system`);
    const parentPath = key.slice(0, key.lastIndexOf('/')) || '/';
    const parent = this.stat(parentPath, at);
    if (parent === undefined || !parent.dir)
      throw new FsError(`open ${path}: ${parent === undefined ? enoent : 'not a directory'}`);
    const existing = this.stat(path, at);
    if (existing?.dir === true) throw new FsError(`open ${path}: is a directory`);
    if (existing !== undefined ? !allowed(this.#who, existing, 2) : !allowed(this.#who, parent, 2))
      throw new FsError(`open ${path}: permission denied`);
    const gid = (parent.mode & setgid) !== 0 ? parent.gid : ([...this.#who.groups][0] ?? 0);
    // An existing file keeps its mode and owner; a new one gets the perm asked for.
    const meta = existing ?? { dir: false, mode: perm, uid: this.#who.uid, gid };
    this.#created.set(key, { ...meta, content: initialContent });
    this.#events.push({ at: 0, store: place.store, key: place.key, content: initialContent });
  }
}

export interface MounttestOptions {
  readonly program: Program & { readonly kind: 'mounttest' };
  readonly pod: JsonObject;
  readonly container: JsonObject;
  readonly files: PodFiles;
  /** When the run starts (ms, the pod's clock): API volume contents are read as of then. */
  readonly startAt: number;
}

/** Works out a mounttest run; throws MounttestUnknowable when the node cannot know it. */
export function runMounttest(o: MounttestOptions): ContainerRun {
  const f: MounttestFlags = o.program.flags;
  const events: FileEvent[] = [];
  const output: { at: number; text: string }[] = [];
  const fs = new MountFs(o.files, o.pod, o.container, events);
  const at = o.startAt;
  let failed = false;
  const print = (text: string, t = 0): void => {
    output.push({ at: t, text });
  };
  /** Runs one of mounttest's steps: a Go error is printed after `prefix` and fails the run. */
  const step = (fn: () => void, prefix = ''): boolean => {
    try {
      fn();
      return true;
    } catch (err) {
      if (!(err instanceof FsError)) throw err;
      failed = true;
      print(`${prefix}${err.message}\n`);
      return false;
    }
  };
  const q = goQuote;
  if (f.fsType !== undefined) {
    const p = f.fsType;
    step(() => print(`mount type of ${q(p)}: ${fs.fsType(p, at)}\n`), `error from statfs(${q(p)}): `);
  }
  for (const { path, perm } of f.newFiles) {
    if (step(() => fs.write(path, perm, at), `error writing new file ${q(path)}: `))
      step(() => print(`content of file ${q(path)}: ${fs.read(path, at)}\n`));
  }
  const statOrFail = (p: string, what: (st: Stat) => string, fail: string): void => {
    const st = fs.stat(p, at);
    if (st === undefined) {
      failed = true;
      print(fail);
    } else print(what(st));
  };
  if (f.fileMode !== undefined) {
    const p = f.fileMode;
    statOrFail(
      p,
      (st) => `mode of file ${q(p)}: ${goFileMode(st.dir, st.mode)}\n`,
      `error from Stat(${q(p)}): stat ${p}: ${enoent}\n`,
    );
  }
  if (f.filePerm !== undefined) {
    const p = f.filePerm;
    statOrFail(
      p,
      (st) => `perms of file ${q(p)}: ${goFileMode(false, st.mode & 0o777)}\n`,
      `error from Stat(${q(p)}): stat ${p}: ${enoent}\n`,
    );
  }
  if (f.fileOwner !== undefined) {
    const p = f.fileOwner;
    statOrFail(
      p,
      (st) => `owner UID of ${q(p)}: ${st.uid}\nowner GID of ${q(p)}: ${st.gid}\n`,
      `error from stat(${q(p)}): ${enoent}\n`,
    );
  }
  if (f.fileContent !== undefined) {
    const p = f.fileContent;
    step(
      () => print(`content of file ${q(p)}: ${fs.read(p, at)}\n`),
      `error reading file content for ${q(p)}: `,
    );
  }
  const loopPath = f.fileContentInLoop;
  if (loopPath === undefined) {
    return {
      program: o.program,
      known: true,
      exitAfterMs: 0,
      exitCode: failed ? 1 : 0,
      events,
      output,
      outputKnown: true,
    };
  }
  // The loop reads every 2 s while less than retry_time has passed since it began.
  const retryMs = f.retryTimeS * 1000;
  const iteration = (t: number): { ok: boolean; stop: boolean } => {
    try {
      const content = fs.read(loopPath, at + t);
      print(`content of file ${q(loopPath)}: ${content}\n`, t);
      if (f.breakOnExpectedContent && content !== initialContent) {
        print(`Unexpected content. Expected: ${initialContent}. Retrying`, t);
        return { ok: true, stop: false };
      }
      return { ok: true, stop: f.breakOnExpectedContent };
    } catch (err) {
      if (!(err instanceof FsError)) throw err;
      print(`Error reading file ${loopPath}: ${err.message}, retrying\n`, t);
      return { ok: false, stop: false };
    }
  };
  const lastTick = retryMs <= 0 ? -1 : Math.ceil(retryMs / 2000) * 2000 - 2000;
  if (f.breakOnExpectedContent || lastTick < 0) {
    // Worked out now, from what the files hold now.
    let ok = true;
    let end = 0;
    for (let t = 0; t <= lastTick; t += 2000) {
      const r = iteration(t);
      ok = r.ok;
      end = t + 2000;
      if (r.stop) {
        end = t;
        break;
      }
    }
    return {
      program: o.program,
      known: true,
      exitAfterMs: end,
      exitCode: failed || !ok ? 1 : 0,
      events,
      output,
      outputKnown: true,
    };
  }
  // Without break: it prints what the files hold at each tick, so its output follows the
  // volumes' later versions (ConfigMap updates, label changes) as time passes.
  let next = 0;
  const firstOk = (() => {
    try {
      fs.read(loopPath, at);
      return true;
    } catch (err) {
      if (!(err instanceof FsError)) throw err;
      return false;
    }
  })();
  return {
    program: o.program,
    known: true,
    exitAfterMs: lastTick + 2000,
    exitCode: failed || !firstOk ? 1 : 0,
    events,
    output,
    outputKnown: true,
    follow: (toMs: number) => {
      for (; next <= Math.min(toMs, lastTick); next += 2000) iteration(next);
    },
  };
}
