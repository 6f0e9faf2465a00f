/** Container-level defaults (upstream SetDefaults_Container, _ContainerPort, _Probe, _HTTPGetAction...). */
import type { JsonObject } from '../../../../util/json.js';
import { obj, objArr, setDefault, setDefaultStr, str } from '../access.js';

/**
 * The tag of an image reference as upstream's parsers.ParseImageName sees it: `latest` when
 * neither tag nor digest is given, '' when a digest is given or the reference does not parse.
 */
export function imageTag(image: string): string {
  if (image === '' || image !== image.trim()) return '';
  let name = image;
  const at = name.indexOf('@');
  if (at >= 0) {
    if (!/^[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}$/.test(name.slice(at + 1)))
      return '';
    name = name.slice(0, at);
  }
  let tag = '';
  const colon = name.lastIndexOf(':');
  if (colon > name.lastIndexOf('/')) {
    tag = name.slice(colon + 1);
    name = name.slice(0, colon);
    if (!/^[\w][\w.-]{0,127}$/.test(tag)) return '';
  }
  // The repository path (after an optional registry host) must be lower case.
  const slash = name.indexOf('/');
  const first = slash >= 0 ? name.slice(0, slash) : '';
  const isHost = first.includes('.') || first.includes(':') || first === 'localhost';
  const path = isHost ? name.slice(slash + 1) : name;
  if (
    path === '' ||
    !/^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:\/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*$/.test(path)
  ) {
    return '';
  }
  if (at >= 0) return tag;
  return tag === '' ? 'latest' : tag;
}

export function defaultHTTPGet(action: JsonObject | undefined): void {
  if (action === undefined) return;
  setDefaultStr(action, 'path', '/');
  setDefaultStr(action, 'scheme', 'HTTP');
}

export function defaultProbe(probe: JsonObject | undefined): void {
  if (probe === undefined) return;
  const zeroDefault = (key: string, value: number): void => {
    const v = probe[key];
    if (v === undefined || v === null || v === 0) probe[key] = value;
  };
  zeroDefault('timeoutSeconds', 1);
  zeroDefault('periodSeconds', 10);
  zeroDefault('successThreshold', 1);
  zeroDefault('failureThreshold', 3);
  defaultHTTPGet(obj(probe, 'httpGet'));
  const grpc = obj(probe, 'grpc');
  if (grpc !== undefined) setDefault(grpc, 'service', '');
}

function defaultLifecycle(lifecycle: JsonObject | undefined): void {
  defaultHTTPGet(obj(obj(lifecycle, 'postStart'), 'httpGet'));
  defaultHTTPGet(obj(obj(lifecycle, 'preStop'), 'httpGet'));
}

export function defaultObjectFieldSelector(sel: JsonObject | undefined): void {
  if (sel !== undefined) setDefaultStr(sel, 'apiVersion', 'v1');
}

/** Defaults of one container (also init and ephemeral containers). */
export function defaultContainer(c: JsonObject): void {
  if (str(c, 'imagePullPolicy') === undefined || c['imagePullPolicy'] === '') {
    c['imagePullPolicy'] = imageTag(str(c, 'image') ?? '') === 'latest' ? 'Always' : 'IfNotPresent';
  }
  setDefaultStr(c, 'terminationMessagePath', '/dev/termination-log');
  setDefaultStr(c, 'terminationMessagePolicy', 'File');
  for (const p of objArr(c, 'ports')) setDefaultStr(p, 'protocol', 'TCP');
  for (const e of objArr(c, 'env')) defaultObjectFieldSelector(obj(obj(e, 'valueFrom'), 'fieldRef'));
  defaultProbe(obj(c, 'livenessProbe'));
  defaultProbe(obj(c, 'readinessProbe'));
  defaultProbe(obj(c, 'startupProbe'));
  defaultLifecycle(obj(c, 'lifecycle'));
}
