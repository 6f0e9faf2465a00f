/**
 * Whether a pod's containers read its API volumes (ConfigMap, Secret, downward API, projected) in
 * a way the node follows: then the node reads their sources and requests their tokens before it
 * starts the pod, as the kubelet does for every pod; otherwise it spares those requests, since
 * nothing it simulates would look at the files.
 */
import type { JsonObject } from '../../util/json.js';
import { objAt, objsAt, strAt } from '../json.js';
import { containerEnv } from './container-run.js';
import type { EnvContext } from './container-run.js';
import { containerProgram } from './program.js';
import { isApiVolume } from './volume-data.js';

export function readsApiVolumes(pod: JsonObject, context: EnvContext): boolean {
  const spec = objAt(pod, 'spec');
  const apiVolumes = new Set(
    objsAt(spec, 'volumes')
      .filter(isApiVolume)
      .map((v) => strAt(v, 'name') ?? ''),
  );
  if (apiVolumes.size === 0) return false;
  for (const c of [...objsAt(spec, 'initContainers'), ...objsAt(spec, 'containers')]) {
    const mounts = objsAt(c, 'volumeMounts').filter((m) => apiVolumes.has(strAt(m, 'name') ?? ''));
    if (mounts.length === 0) continue;
    const program = containerProgram(c, containerEnv(pod, c, context));
    if (program.kind === 'mounttest') return true;
    // A server that reads its TLS key pair from one of those mounts (agnhost webhook).
    if (program.kind === 'server') {
      const paths = [...program.listeners.values()].flatMap((l) =>
        l.tlsFiles === undefined ? [] : [l.tlsFiles.cert, l.tlsFiles.key],
      );
      const under = (path: string, mount: string): boolean =>
        path === mount || path.startsWith(mount.endsWith('/') ? mount : `${mount}/`);
      if (paths.some((p) => mounts.some((m) => under(p, strAt(m, 'mountPath') ?? '\0')))) return true;
    }
    // A script that names a path under one of those mounts.
    const text = JSON.stringify([c['command'] ?? null, c['args'] ?? null]);
    if (program.kind === 'script' && mounts.some((m) => text.includes(strAt(m, 'mountPath') ?? '\0')))
      return true;
  }
  return false;
}
