/**
 * The files of the volumes whose content comes from the API — ConfigMap, Secret, downward API and
 * projected volumes — as the kubelet's atomic writer lays them out: one file per key or item, with
 * its mode (the item's, else the volume's defaultMode, else 0644), owned by root, or group-owned by
 * the pod's fsGroup with read for the group added (the volumes are read-only, SetVolumeOwnership).
 */
import type { JsonObject } from '../../util/json.js';
import { numAt, objAt, objsAt, strAt } from '../json.js';
import { resourceField } from './resource-field.js';
import { metadataFieldPath } from './field-path.js';
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

/**
 * The `configmap/<name>` and `secret/<name>` keys the pod's volumes read (reading a ConfigMap
 * also gives its `binary/<name>`).
 */
export function volumeSourceKeys(pod: JsonObject): string[] {
  const keys = new Set<string>();
  for (const v of objsAt(objAt(pod, 'spec'), 'volumes')) {
    const cm = strAt(objAt(v, 'configMap'), 'name');
    const secret = strAt(objAt(v, 'secret'), 'secretName');
    if (cm !== undefined) keys.add(`configmap/${cm}`);
    if (secret !== undefined) keys.add(`secret/${secret}`);
    for (const s of objsAt(objAt(v, 'projected'), 'sources')) {
      const pcm = strAt(objAt(s, 'configMap'), 'name');
      const ps = strAt(objAt(s, 'secret'), 'name');
      if (pcm !== undefined) keys.add(`configmap/${pcm}`);
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

/** A metadata field of the pod for a downward API file; unsupported paths cannot be set up. */
function metadataField(pod: JsonObject, path: string): string {
  const v = metadataFieldPath(pod, path);
  if (v === undefined) throw new VolumeSetupError(`unsupported fieldPath: ${path}`);
  return v;
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
 * The Secret a source names: a Secret volume's `secretName`, a projected Secret source's `name`
 * (`index` is the projection's place, undefined for a volume of one source).
 */
function secretSourceName(secret: JsonObject, index: number | undefined): string {
  return strAt(secret, index === undefined ? 'secretName' : 'name') ?? '';
}

/**
 * Whether the node has not read yet what the volume needs: a ConfigMap or Secret it names, or the
 * token of a projected serviceAccountToken source. The node reads them only for a program that
 * reads its volumes, so most pods' volumes stay unread; asking first spares apiVolumeFiles an
 * error built and thrown for every such pod.
 */
export function unreadSources(volume: JsonObject, sources: VolumeSources): boolean {
  const objects = sources.objects;
  const name = strAt(volume, 'name') ?? '';
  const projected = objAt(volume, 'projected');
  const unread = (s: JsonObject, index: number | undefined): boolean => {
    const cm = objAt(s, 'configMap');
    const secret = objAt(s, 'secret');
    if (cm !== undefined) return objects?.get(`configmap/${strAt(cm, 'name') ?? ''}`) === undefined;
    if (secret !== undefined) return objects?.get(`secret/${secretSourceName(secret, index)}`) === undefined;
    if (objAt(s, 'serviceAccountToken') !== undefined && index !== undefined)
      return sources.tokens?.get(tokenKey(name, index)) === undefined;
    return false;
  };
  if (projected === undefined) return unread(volume, undefined);
  return objsAt(projected, 'sources').some((s, i) => unread(s, i));
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
  const projected = objAt(volume, 'projected');
  const source =
    projected ?? objAt(volume, 'configMap') ?? objAt(volume, 'secret') ?? objAt(volume, 'downwardAPI') ?? {};
  const defaultMode = numAt(source, 'defaultMode') ?? 0o644;
  const fsGroup = numAt(objAt(objAt(pod, 'spec'), 'securityContext'), 'fsGroup');
  // A volume of one source and a projection source name the same parts (a Secret volume's name
  // is secretName, a projected Secret's name); `index` is the projection's, for its token.
  const project = (s: JsonObject, index: number | undefined): void => {
    const cm = objAt(s, 'configMap');
    const secret = objAt(s, 'secret');
    const downward = objAt(s, 'downwardAPI');
    const token = objAt(s, 'serviceAccountToken');
    if (cm !== undefined) {
      const n = strAt(cm, 'name') ?? '';
      const [data, binary] = [objects.get(`configmap/${n}`), objects.get(`binary/${n}`)];
      keyToPath(payload, `configmap ${n}`, data, binary, cm, defaultMode);
    } else if (secret !== undefined) {
      const n = secretSourceName(secret, index);
      keyToPath(payload, `secret ${n}`, objects.get(`secret/${n}`), undefined, secret, defaultMode);
    } else if (downward !== undefined) {
      downwardItems(payload, pod, objsAt(downward, 'items'), defaultMode, sources.allocatable);
    } else if (token !== undefined && index !== undefined) {
      const t = sources.tokens?.get(tokenKey(name, index));
      if (t === undefined) throw new VolumeSetupError(`token of ${name} was not requested`);
      // The kubelet writes a token that a pod with fsGroup may share 0600.
      payload.files.set(strAt(token, 'path') ?? 'token', {
        content: t,
        mode: fsGroup === undefined ? defaultMode : 0o600,
      });
    } else throw new VolumeSetupError(`a source of ${name} is not simulated`);
  };
  if (projected !== undefined) objsAt(projected, 'sources').forEach((s, i) => project(s, i));
  else project(volume, undefined);
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
