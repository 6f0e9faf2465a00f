/**
 * What the Node authorizer knows (a reduced form of upstream's plugin/pkg/auth/authorizer/node
 * graph): which pods are bound to which node and what each pod refers to (secrets, config maps,
 * persistent volume claims, its service account), which persistent volume each claim is bound
 * to, and which node each VolumeAttachment is for. Fed by whoever owns storage (`nanokube
 * serve` follows the watches); auth/ never reads storage itself.
 */
import { isJsonObject } from '../../util/json.js';
import type { JsonObject, JsonValue } from '../../util/json.js';

interface PodRefs {
  readonly node: string;
  readonly namespace: string;
  readonly secrets: ReadonlySet<string>;
  readonly configMaps: ReadonlySet<string>;
  readonly claims: ReadonlySet<string>;
  readonly serviceAccount: string;
}

const o = (v: JsonValue | undefined): JsonObject => (isJsonObject(v) ? v : {});
const a = (v: JsonValue | undefined): JsonValue[] => (Array.isArray(v) ? v : []);
const s = (v: JsonValue | undefined): string => (typeof v === 'string' ? v : '');

/** The objects a pod refers to (upstream's podutil.VisitPodSecretNames / VisitPodConfigmapNames and claim volumes). */
function podRefs(pod: JsonObject): Omit<PodRefs, 'node' | 'namespace'> {
  const spec = o(pod['spec']);
  const secrets = new Set<string>();
  const configMaps = new Set<string>();
  const claims = new Set<string>();
  const add = (set: Set<string>, name: string): void => {
    if (name !== '') set.add(name);
  };
  for (const ref of a(spec['imagePullSecrets'])) add(secrets, s(o(ref)['name']));
  const containers = [
    ...a(spec['containers']),
    ...a(spec['initContainers']),
    ...a(spec['ephemeralContainers']),
  ];
  for (const c of containers.map(o)) {
    for (const from of a(c['envFrom']).map(o)) {
      add(secrets, s(o(from['secretRef'])['name']));
      add(configMaps, s(o(from['configMapRef'])['name']));
    }
    for (const env of a(c['env']).map(o)) {
      const vf = o(env['valueFrom']);
      add(secrets, s(o(vf['secretKeyRef'])['name']));
      add(configMaps, s(o(vf['configMapKeyRef'])['name']));
    }
  }
  const podName = s(o(pod['metadata'])['name']);
  for (const v of a(spec['volumes']).map(o)) {
    add(secrets, s(o(v['secret'])['secretName']));
    add(configMaps, s(o(v['configMap'])['name']));
    add(claims, s(o(v['persistentVolumeClaim'])['claimName']));
    if (isJsonObject(v['ephemeral'])) add(claims, `${podName}-${s(v['name'])}`);
    for (const src of a(o(v['projected'])['sources']).map(o)) {
      add(secrets, s(o(src['secret'])['name']));
      add(configMaps, s(o(src['configMap'])['name']));
    }
    // Volume plugins with a secret reference of their own.
    for (const plugin of [
      'azureFile',
      'cephfs',
      'cinder',
      'flexVolume',
      'iscsi',
      'rbd',
      'scaleIO',
      'storageos',
      'csi',
    ]) {
      const p = o(v[plugin]);
      add(secrets, s(p['secretName']));
      add(secrets, s(o(p['secretRef'])['name']));
      add(secrets, s(o(p['nodePublishSecretRef'])['name']));
    }
  }
  return { secrets, configMaps, claims, serviceAccount: s(spec['serviceAccountName']) };
}

export class NodeGraph {
  readonly #pods = new Map<string, PodRefs>();
  readonly #podsByNode = new Map<string, Set<string>>();
  readonly #claimVolumes = new Map<string, string>();
  readonly #attachmentNodes = new Map<string, string>();

  setPod(pod: JsonObject): void {
    const meta = o(pod['metadata']);
    const key = `${s(meta['namespace'])}/${s(meta['name'])}`;
    this.deletePod(s(meta['namespace']), s(meta['name']));
    const node = s(o(pod['spec'])['nodeName']);
    if (node === '') return;
    this.#pods.set(key, { node, namespace: s(meta['namespace']), ...podRefs(pod) });
    let set = this.#podsByNode.get(node);
    if (set === undefined) this.#podsByNode.set(node, (set = new Set()));
    set.add(key);
  }

  deletePod(namespace: string, name: string): void {
    const key = `${namespace}/${name}`;
    const old = this.#pods.get(key);
    if (old === undefined) return;
    this.#pods.delete(key);
    const set = this.#podsByNode.get(old.node);
    set?.delete(key);
    if (set?.size === 0) this.#podsByNode.delete(old.node);
  }

  setClaim(claim: JsonObject): void {
    const meta = o(claim['metadata']);
    const volume = s(o(claim['spec'])['volumeName']);
    const key = `${s(meta['namespace'])}/${s(meta['name'])}`;
    if (volume === '') this.#claimVolumes.delete(key);
    else this.#claimVolumes.set(key, volume);
  }

  deleteClaim(namespace: string, name: string): void {
    this.#claimVolumes.delete(`${namespace}/${name}`);
  }

  setAttachment(va: JsonObject): void {
    this.#attachmentNodes.set(s(o(va['metadata'])['name']), s(o(va['spec'])['nodeName']));
  }

  deleteAttachment(name: string): void {
    this.#attachmentNodes.delete(name);
  }

  /** Forgets one kind before a relist. */
  clear(kind: 'pods' | 'persistentvolumeclaims' | 'volumeattachments'): void {
    if (kind === 'pods') {
      this.#pods.clear();
      this.#podsByNode.clear();
    } else if (kind === 'persistentvolumeclaims') this.#claimVolumes.clear();
    else this.#attachmentNodes.clear();
  }

  #podsOn(node: string): PodRefs[] {
    return [...(this.#podsByNode.get(node) ?? [])].map((k) => this.#pods.get(k)!);
  }

  /** Whether a pod bound to `node` refers to the object (upstream hasPathFrom). */
  related(
    node: string,
    kind: 'secret' | 'configmap' | 'pvc' | 'serviceaccount' | 'pv' | 'volumeattachment',
    namespace: string,
    name: string,
  ): boolean {
    if (kind === 'volumeattachment') return this.#attachmentNodes.get(name) === node;
    const pods = this.#podsOn(node);
    if (kind === 'pv') {
      return pods.some((p) =>
        [...p.claims].some((c) => this.#claimVolumes.get(`${p.namespace}/${c}`) === name),
      );
    }
    const here = pods.filter((p) => p.namespace === namespace);
    switch (kind) {
      case 'secret':
        return here.some((p) => p.secrets.has(name));
      case 'configmap':
        return here.some((p) => p.configMaps.has(name));
      case 'pvc':
        return here.some((p) => p.claims.has(name));
      case 'serviceaccount':
        return here.some((p) => p.serviceAccount === name);
    }
  }
}
