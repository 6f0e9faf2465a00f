/**
 * The files of the volumes whose content comes from the API — ConfigMap, Secret, downward API and
 * projected volumes — as the kubelet's atomic writer lays them out: one file per key or item, with
 * its mode (the item's, else the volume's defaultMode, else 0644), owned by root, or group-owned by
 * the pod's fsGroup with read for the group added (the volumes are read-only, SetVolumeOwnership).
 */
import type { JsonObject } from '../../util/json.js';
import { numAt, objAt, objsAt, stringMap, strAt } from '../json.js';
import { resourceField } from './resource-field.js';
import type { ResourceList } from '../resources.js';

/** A file of a simulated volume. */
export interface FileNode {
  readonly content: string;
  /** Permission bits (0o644). */
  readonly mode: number;
  readonly uid: number;
  readonly gid: number;
}

/** What the node read from the API for a pod's volumes. */
export interface VolumeSources {
  /**
   * `configmap/<name>`, `secret/<name>`: their data (Secret values decoded); `binary/<name>`: a
   * ConfigMap's binaryData (decoded); null: not found.
   */
  readonly objects?: ReadonlyMap<string, Readonly<Record<string, string>> | null>;
  /** Tokens of projected serviceAccountToken sources, by `tokenKey(volume, index)`. */
  readonly tokens?: ReadonlyMap<string, string>;
  /** The node's allocatable, for resourceFieldRef limits a container does not set. */
  readonly allocatable?: ResourceList;
}

/** Why a volume cannot be set up: the kubelet's MountVolume.SetUp error. */
export class VolumeSetupError extends Error {}

/** A token request of a projected serviceAccountToken source. */
export interface TokenRequestSpec {
  readonly key: string;
  readonly audience: string | undefined;
  readonly expirationSeconds: number;
}

export function tokenKey(volume: string, index: number): string {
  return `${volume}/${index}`;
}

/** The `configmap/<name>`, `binary/<name>` and `secret/<name>` keys the pod's volumes read. */
export function volumeSourceKeys(pod: JsonObject): string[] {
  const keys = new Set<string>();
  const configMap = (name: string | undefined): void => {
    if (name === undefined) return;
    keys.add(`configmap/${name}`);
    keys.add(`binary/${name}`);
  };
  for (const v of objsAt(objAt(pod, 'spec'), 'volumes')) {
    configMap(strAt(objAt(v, 'configMap'), 'name'));
    const secret = strAt(objAt(v, 'secret'), 'secretName');
    if (secret !== undefined) keys.add(`secret/${secret}`);
    for (const s of objsAt(objAt(v, 'projected'), 'sources')) {
      configMap(strAt(objAt(s, 'configMap'), 'name'));
      const ps = strAt(objAt(s, 'secret'), 'name');
      if (ps !== undefined) keys.add(`secret/${ps}`);
    }
  }
  return [...keys];
}

/** The token requests of the pod's projected serviceAccountToken sources. */
export function tokenRequests(pod: JsonObject): TokenRequestSpec[] {
  const out: TokenRequestSpec[] = [];
  for (const v of objsAt(objAt(pod, 'spec'), 'volumes')) {
    objsAt(objAt(v, 'projected'), 'sources').forEach((s, i) => {
      const t = objAt(s, 'serviceAccountToken');
      if (t === undefined) return;
      const audience = strAt(t, 'audience');
      out.push({
        key: tokenKey(strAt(v, 'name') ?? '', i),
        audience: audience === '' ? undefined : audience,
        expirationSeconds: numAt(t, 'expirationSeconds') ?? 3600,
      });
    });
  }
  return out;
}

/** Go's strconv.Quote for the strings labels and annotations hold. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0) ?? 0;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\x07') out += '\\a';
    else if (ch === '\b') out += '\\b';
    else if (ch === '\f') out += '\\f';
    else if (ch === '\v') out += '\\v';
    else if (c < 0x20 || c === 0x7f) out += `\\x${c.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

/** fieldpath.FormatMap: `key="value"` lines in key order. */
export function formatMap(m: Readonly<Record<string, string>>): string {
  return Object.keys(m)
    .sort()
    .map((k) => `${k}=${goQuote(m[k] ?? '')}`)
    .join('\n');
}

/** fieldpath.ExtractFieldPathAsString for the metadata fields a downward API volume offers. */
function metadataField(pod: JsonObject, path: string): string {
  const meta = objAt(pod, 'metadata');
  const m = /^metadata\.(labels|annotations)\['(.+)'\]$/.exec(path);
  if (m !== null) return stringMap(meta, m[1]!)[m[2]!] ?? '';
  switch (path) {
    case 'metadata.annotations':
      return formatMap(stringMap(meta, 'annotations'));
    case 'metadata.labels':
      return formatMap(stringMap(meta, 'labels'));
    case 'metadata.name':
      return strAt(meta, 'name') ?? '';
    case 'metadata.namespace':
      return strAt(meta, 'namespace') ?? '';
    case 'metadata.uid':
      return strAt(meta, 'uid') ?? '';
    default:
      throw new VolumeSetupError(`unsupported fieldPath: ${path}`);
  }
}

interface Payload {
  readonly files: Map<string, { content: string; mode: number }>;
}

function keyToPath(
  payload: Payload,
  what: string,
  data: Readonly<Record<string, string>> | null | undefined,
  binary: Readonly<Record<string, string>> | null | undefined,
  source: JsonObject,
  defaultMode: number,
): void {
  const optional = source['optional'] === true;
  if (data === undefined) throw new VolumeSetupError(`${what} was not read`);
  if (data === null) {
    if (optional) return;
    throw new VolumeSetupError(`${what} not found`);
  }
  const all: Record<string, string> = { ...(binary ?? {}), ...data };
  const items = objsAt(source, 'items');
  if (items.length === 0) {
    for (const [k, v] of Object.entries(all)) payload.files.set(k, { content: v, mode: defaultMode });
    return;
  }
  for (const item of items) {
    const key = strAt(item, 'key') ?? '';
    const content = all[key];
    if (content === undefined) {
      if (optional) continue;
      throw new VolumeSetupError(`${what} references non-existent key ${key}`);
    }
    payload.files.set(strAt(item, 'path') ?? key, { content, mode: numAt(item, 'mode') ?? defaultMode });
  }
}

function downwardItems(
  payload: Payload,
  pod: JsonObject,
  items: readonly JsonObject[],
  defaultMode: number,
  allocatable: ResourceList | undefined,
): void {
  const spec = objAt(pod, 'spec');
  for (const item of items) {
    const path = strAt(item, 'path') ?? '';
    const mode = numAt(item, 'mode') ?? defaultMode;
    const fieldRef = objAt(item, 'fieldRef');
    const resourceRef = objAt(item, 'resourceFieldRef');
    let content: string | undefined;
    if (fieldRef !== undefined) content = metadataField(pod, strAt(fieldRef, 'fieldPath') ?? '');
    else if (resourceRef !== undefined) {
      const name = strAt(resourceRef, 'containerName') ?? '';
      const container = [...objsAt(spec, 'containers'), ...objsAt(spec, 'initContainers')].find(
        (c) => strAt(c, 'name') === name,
      );
      if (container === undefined) throw new VolumeSetupError(`container ${name} not found`);
      content = resourceField(pod, container, resourceRef, allocatable);
      if (content === undefined) throw new VolumeSetupError(`resource of ${path} not known`);
    }
    if (content !== undefined) payload.files.set(path, { content, mode });
  }
}

/** Whether the volume's content comes from the API (and so this module lays it out). */
export function isApiVolume(volume: JsonObject): boolean {
  return ['configMap', 'secret', 'downwardAPI', 'projected'].some((k) => objAt(volume, k) !== undefined);
}

/**
 * The files of an API volume of the pod, by path inside the volume. Throws VolumeSetupError when
 * the kubelet could not set it up (a required ConfigMap, Secret or key is missing).
 */
export function apiVolumeFiles(
  pod: JsonObject,
  volume: JsonObject,
  sources: VolumeSources,
): Map<string, FileNode> {
  const payload: Payload = { files: new Map() };
  const objects = sources.objects ?? new Map<string, Readonly<Record<string, string>> | null>();
  const name = strAt(volume, 'name') ?? '';
  const cm = objAt(volume, 'configMap');
  const secret = objAt(volume, 'secret');
  const downward = objAt(volume, 'downwardAPI');
  const projected = objAt(volume, 'projected');
  const source = cm ?? secret ?? downward ?? projected ?? {};
  const defaultMode = numAt(source, 'defaultMode') ?? 0o644;
  const fsGroup = numAt(objAt(objAt(pod, 'spec'), 'securityContext'), 'fsGroup');
  if (cm !== undefined) {
    const n = strAt(cm, 'name') ?? '';
    keyToPath(
      payload,
      `configmap ${n}`,
      objects.get(`configmap/${n}`),
      objects.get(`binary/${n}`),
      cm,
      defaultMode,
    );
  } else if (secret !== undefined) {
    const n = strAt(secret, 'secretName') ?? '';
    keyToPath(payload, `secret ${n}`, objects.get(`secret/${n}`), undefined, secret, defaultMode);
  } else if (downward !== undefined) {
    downwardItems(payload, pod, objsAt(downward, 'items'), defaultMode, sources.allocatable);
  } else if (projected !== undefined) {
    objsAt(projected, 'sources').forEach((s, i) => {
      const pcm = objAt(s, 'configMap');
      const psec = objAt(s, 'secret');
      const pdown = objAt(s, 'downwardAPI');
      const token = objAt(s, 'serviceAccountToken');
      if (pcm !== undefined) {
        const n = strAt(pcm, 'name') ?? '';
        keyToPath(
          payload,
          `configmap ${n}`,
          objects.get(`configmap/${n}`),
          objects.get(`binary/${n}`),
          pcm,
          defaultMode,
        );
      } else if (psec !== undefined) {
        const n = strAt(psec, 'name') ?? '';
        keyToPath(payload, `secret ${n}`, objects.get(`secret/${n}`), undefined, psec, defaultMode);
      } else if (pdown !== undefined) {
        downwardItems(payload, pod, objsAt(pdown, 'items'), defaultMode, sources.allocatable);
      } else if (token !== undefined) {
        const t = sources.tokens?.get(tokenKey(name, i));
        if (t === undefined) throw new VolumeSetupError(`token of ${name} was not requested`);
        // The kubelet writes a token that a pod with fsGroup may share 0600.
        payload.files.set(strAt(token, 'path') ?? 'token', {
          content: t,
          mode: fsGroup === undefined ? defaultMode : 0o600,
        });
      } else throw new VolumeSetupError(`projected source ${i} of ${name} is not simulated`);
    });
  }
  const out = new Map<string, FileNode>();
  for (const [path, f] of payload.files) {
    out.set(path.replace(/^\/+/, ''), {
      content: f.content,
      mode: fsGroup === undefined ? f.mode : f.mode | 0o440,
      uid: 0,
      gid: fsGroup ?? 0,
    });
  }
  return out;
}
