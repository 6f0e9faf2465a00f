/**
 * The files of one pod on a simulated node. emptyDir volumes live as long as the pod; hostPath
 * directories are the node's (`nodeFiles`, shared by its pods); ConfigMap, Secret, downward API
 * and projected volumes hold what the kubelet would write there from the API (volume-data.ts),
 * kept as versions in time as their sources change. Volumes backed by storage are not modelled:
 * touching them makes a program unknowable.
 */
import { rootedCleanPath } from '../../util/go-path.js';
import type { JsonObject } from '../../util/json.js';
import { numAt, objAt, objsAt, strAt } from '../json.js';
import { VolumeSetupError, apiVolumeFiles, isApiVolume, unreadSources } from './volume-data.js';
import type { FileNode, VolumeSources } from './volume-data.js';
import { ShellUnsupported } from './shell-parse.js';

interface ApiVersion {
  readonly at: number;
  /** undefined: the volume could not be set up (what it holds is unknowable). */
  readonly files: ReadonlyMap<string, FileNode> | undefined;
  readonly fingerprint: string;
}

type Volume =
  | { readonly kind: 'emptyDir'; readonly files: Map<string, string>; readonly memory: boolean }
  | { readonly kind: 'hostPath'; readonly root: string }
  | { readonly kind: 'api'; readonly spec: JsonObject; readonly versions: ApiVersion[] }
  | { readonly kind: 'opaque' };

/** A read-only view of an API volume: its files at a time. */
export interface ApiView {
  filesAt(at: number): ReadonlyMap<string, FileNode> | undefined;
}

/** Where a path of a container lands. */
export type Place =
  | {
      readonly store: Map<string, string> | undefined;
      readonly key: string;
      /** The emptyDir volume the path is in (its medium), if it is in one. */
      readonly emptyDir?: { readonly memory: boolean };
      /** Whether it is the root of the volume (or subPath) mounted. */
      readonly mountRoot?: boolean;
      readonly readOnly?: boolean;
    }
  | { readonly api: ApiView; readonly key: string; readonly mountRoot: boolean }
  | { readonly opaque: string };

/** A container path as the runtime resolves it: rooted, `.` and `..` resolved. */
export function normalize(path: string): string {
  return rootedCleanPath(path);
}

function fingerprint(files: ReadonlyMap<string, FileNode> | undefined): string {
  return files === undefined ? '-' : JSON.stringify([...files].sort(([a], [b]) => (a < b ? -1 : 1)));
}

function layOut(
  pod: JsonObject,
  spec: JsonObject,
  sources: VolumeSources,
): Map<string, FileNode> | undefined {
  if (unreadSources(spec, sources)) return undefined;
  try {
    const out = new Map<string, FileNode>();
    for (const [path, f] of apiVolumeFiles(pod, spec, sources)) out.set(normalize(path), f);
    return out;
  } catch (err) {
    if (err instanceof VolumeSetupError) return undefined;
    throw err;
  }
}

/** Whether `dir` (a normalized path) holds any of `keys`. */
function holds(keys: Iterable<string>, dir: string): boolean {
  const prefix = dir === '/' ? '/' : `${dir}/`;
  for (const k of keys) if (k.startsWith(prefix)) return true;
  return false;
}

export class PodFiles {
  readonly #volumes = new Map<string, Volume>();
  /** Per volume, the subPath directories the kubelet created in it for its mounts. */
  readonly #subPathDirs = new Map<string, Set<string>>();
  readonly #node: Map<string, string>;
  /** The pod's fsGroup: the group of its volumes. */
  readonly fsGroup: number | undefined;

  constructor(pod: JsonObject, nodeFiles: Map<string, string>, sources: VolumeSources = {}, at = 0) {
    this.#node = nodeFiles;
    this.fsGroup = numAt(objAt(objAt(pod, 'spec'), 'securityContext'), 'fsGroup');
    for (const v of objsAt(objAt(pod, 'spec'), 'volumes')) {
      const name = strAt(v, 'name') ?? '';
      const hostPath = objAt(v, 'hostPath');
      const emptyDir = objAt(v, 'emptyDir');
      if (emptyDir !== undefined)
        this.#volumes.set(name, {
          kind: 'emptyDir',
          files: new Map(),
          memory: strAt(emptyDir, 'medium') === 'Memory',
        });
      else if (hostPath !== undefined)
        this.#volumes.set(name, { kind: 'hostPath', root: strAt(hostPath, 'path') ?? '/' });
      else if (isApiVolume(v)) {
        const files = layOut(pod, v, sources);
        this.#volumes.set(name, {
          kind: 'api',
          spec: v,
          versions: [{ at, files, fingerprint: fingerprint(files) }],
        });
      } else this.#volumes.set(name, { kind: 'opaque' });
    }
  }

  /**
   * The kubelet's periodic sync of API volumes: what `pod` (its labels and annotations now) and
   * `sources` (the ConfigMaps and Secrets now) would write, from `at` on. Returns whether a volume
   * changed.
   */
  refresh(pod: JsonObject, sources: VolumeSources, at: number): boolean {
    let changed = false;
    for (const v of this.#volumes.values()) {
      if (v.kind !== 'api') continue;
      const files = layOut(pod, v.spec, sources);
      // A source that cannot be read now keeps what the volume holds (the kubelet keeps the files).
      if (files === undefined) continue;
      const fp = fingerprint(files);
      if (fp === v.versions.at(-1)?.fingerprint) continue;
      v.versions.push({ at, files, fingerprint: fp });
      changed = true;
    }
    return changed;
  }

  /**
   * The kubelet's mounts of a container being started: a `subPath` (after subPathExpr expansion)
   * that does not exist in its volume is created there as a directory.
   */
  makeSubPaths(container: JsonObject): void {
    for (const m of objsAt(container, 'volumeMounts')) {
      const sub = strAt(m, 'subPath') ?? '';
      if (sub === '') continue;
      const volume = strAt(m, 'name') ?? '';
      const dirs = this.#subPathDirs.get(volume) ?? new Set<string>();
      this.#subPathDirs.set(volume, dirs);
      // Its parents are directories too.
      const parts = normalize(sub)
        .split('/')
        .filter((x) => x !== '');
      for (let i = 1; i <= parts.length; i++) dirs.add(`/${parts.slice(0, i).join('/')}`);
    }
  }

  /**
   * Whether `path` is a directory as `container` sees it inside a volume: a mount's root, a
   * directory the kubelet made for a subPath, or one that holds files; undefined outside volumes.
   */
  isDirInVolume(container: JsonObject, path: string): boolean | undefined {
    const place = this.place(container, path);
    if ('opaque' in place) throw new ShellUnsupported(`${path} is in a ${place.opaque}`);
    if ('api' in place) {
      const files = place.api.filesAt(Infinity);
      return place.mountRoot || (files !== undefined && holds(files.keys(), place.key));
    }
    if (place.store === undefined) return undefined;
    if (
      place.mountRoot === true ||
      (place.store.get(place.key) === undefined && holds(place.store.keys(), place.key))
    )
      return true;
    for (const m of objsAt(container, 'volumeMounts')) {
      const mount = normalize(strAt(m, 'mountPath') ?? '/');
      const p = normalize(path);
      if (p !== mount && !p.startsWith(`${mount}/`)) continue;
      const v = this.#volumes.get(strAt(m, 'name') ?? '');
      if (v?.kind !== 'emptyDir' || v.files !== place.store) continue;
      if (this.#subPathDirs.get(strAt(m, 'name') ?? '')?.has(place.key) === true) return true;
    }
    return false;
  }

  /** A file of the node's own (its /etc/hosts, what hostPath volumes wrote). */
  nodeFile(path: string): string | undefined {
    return this.#node.get(normalize(path));
  }

  /** Whether any volume's content follows the API (and so may change while the pod runs). */
  hasApiVolumes(): boolean {
    return [...this.#volumes.values()].some((v) => v.kind === 'api');
  }

  /** Resolves `path` as `container` sees it (the longest volume mount wins). */
  place(container: JsonObject, path: string): Place {
    const p = normalize(path);
    let best: { mount: string; volume: string; subPath: string; readOnly: boolean } | undefined;
    for (const m of objsAt(container, 'volumeMounts')) {
      const mount = normalize(strAt(m, 'mountPath') ?? '/');
      if (p !== mount && !p.startsWith(mount === '/' ? '/' : `${mount}/`)) continue;
      if (best === undefined || mount.length > best.mount.length)
        best = {
          mount,
          volume: strAt(m, 'name') ?? '',
          subPath: strAt(m, 'subPath') ?? '',
          readOnly: m['readOnly'] === true,
        };
    }
    if (best === undefined) return { store: undefined, key: p };
    const mountRoot = p === best.mount;
    const rel = normalize(`${best.subPath}/${p.slice(best.mount.length)}`);
    const v = this.#volumes.get(best.volume);
    if (v === undefined || v.kind === 'opaque') return { opaque: `${best.volume} volume` };
    if (v.kind === 'api') {
      const versions = v.versions;
      const api: ApiView = {
        filesAt: (at) => {
          let found = versions[0]?.files;
          for (const ver of versions) if (ver.at <= at) found = ver.files;
          return found;
        },
      };
      if (versions.every((x) => x.files === undefined)) return { opaque: `${best.volume} volume` };
      return { api, key: rel, mountRoot };
    }
    if (v.kind === 'emptyDir')
      return { store: v.files, key: rel, emptyDir: { memory: v.memory }, mountRoot, readOnly: best.readOnly };
    return { store: this.#node, key: normalize(`${v.root}/${rel}`), mountRoot, readOnly: best.readOnly };
  }
}
