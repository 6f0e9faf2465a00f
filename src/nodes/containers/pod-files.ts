/**
 * The files of one pod on a simulated node. emptyDir volumes live as long as the pod; hostPath
 * directories are the node's (`nodeFiles`, shared by its pods); ConfigMap, Secret, downward API
 * and projected volumes hold what the kubelet would write there from the API (volume-data.ts),
 * kept as versions in time as their sources change. Volumes backed by storage are not modelled:
 * touching them makes a program unknowable.
 */
import type { JsonObject } from '../../util/json.js';
import { numAt, objAt, objsAt, strAt } from '../json.js';
import { VolumeSetupError, apiVolumeFiles, isApiVolume } from './volume-data.js';
import type { FileNode, VolumeSources } from './volume-data.js';

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

export function normalize(path: string): string {
  const out: string[] = [];
  for (const seg of path.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') out.pop();
    else out.push(seg);
  }
  return `/${out.join('/')}`;
}

function fingerprint(files: ReadonlyMap<string, FileNode> | undefined): string {
  return files === undefined ? '-' : JSON.stringify([...files].sort(([a], [b]) => (a < b ? -1 : 1)));
}

function layOut(
  pod: JsonObject,
  spec: JsonObject,
  sources: VolumeSources,
): Map<string, FileNode> | undefined {
  try {
    const out = new Map<string, FileNode>();
    for (const [path, f] of apiVolumeFiles(pod, spec, sources)) out.set(normalize(path), f);
    return out;
  } catch (err) {
    if (err instanceof VolumeSetupError) return undefined;
    throw err;
  }
}

export class PodFiles {
  readonly #volumes = new Map<string, Volume>();
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
