/**
 * One run of a container on a simulated node, worked out when it starts: when it exits and with
 * what code, the files it writes and removes on the way (its own, the pod's emptyDir volumes, the
 * node's hostPath directories) and what it prints. A script runs in virtual time (shell-run.ts);
 * a known server runs until stopped; anything else keeps the node's default behaviour: it runs
 * until stopped, or for `defaultRunMs` when the pod runs to completion.
 */
import { createHash } from 'node:crypto';
import type { JsonObject } from '../../util/json.js';
import { objAt, objsAt, strAt } from '../json.js';
import { UnknownReference, expandReferences } from './references.js';
import { ShellUnsupported } from './shell-parse.js';
import { runShell, startShell } from './shell-run.js';
import { ShellFsError } from './shell-run.js';
import type { ShellFs, ShellOptions } from './shell-run.js';
import { commandNames } from './shell-parse.js';
import type { ShellNet } from './shell-net.js';
import { netToolsOf, networkCommands } from './net-tools.js';
import { imageName } from './program.js';
import type { Program } from './program.js';
import { resourceField } from './resource-field.js';
import { metadataFieldPath } from './field-path.js';
import { identityOf, ipToolOption } from './identity.js';
import { managedEtcHosts } from './etc-hosts.js';
import { agnhostResolvReader, podResolvConf } from './resolv-conf.js';
import { logsGeneratorOutput } from './logs-generator.js';
import type { PodFiles } from './pod-files.js';
import { normalize } from './pod-files.js';
import { MounttestUnknowable, runMounttest } from './mounttest.js';
import type { ResourceList } from '../resources.js';

/** A change to a file: `content` undefined removes it. `store` undefined: the container's own. */
export interface FileEvent {
  readonly at: number;
  readonly store: Map<string, string> | undefined;
  readonly key: string;
  readonly content: string | undefined;
}

export interface ContainerRun {
  readonly program: Program;
  /** Whether the run follows its program (false: the node's default behaviour). */
  readonly known: boolean;
  /** When it exits, ms after its start; undefined: when stopped. */
  readonly exitAfterMs: number | undefined;
  readonly exitCode: number;
  /** File changes in time order, ms after the start. */
  readonly events: readonly FileEvent[];
  /** What it printed (stdout and stderr), ms after the start. */
  readonly output: readonly { readonly at: number; readonly text: string }[];
  /** Whether `output` is all it prints (a script's, a server whose output is known). */
  readonly outputKnown: boolean;
  /**
   * For a run whose output depends on what happens after it starts (a loop reading a volume
   * that the API updates): appends to `output` what it printed up to `toMs` after its start.
   */
  readonly follow?: (toMs: number) => void;
  /**
   * For a run worked out as time passes (a script that asks the network, whose answers change):
   * when it next needs {@link follow} to run on, ms after its start; undefined once it has ended
   * or cannot be followed any more. Its exit, events and output are known up to where it ran.
   */
  readonly resumeAt?: () => number | undefined;
}

/** The container's own files at `atMs` into a run (replaying its events). */
export function ownFilesAt(run: ContainerRun, atMs: number): Map<string, string> {
  const files = new Map<string, string>();
  for (const e of run.events) {
    if (e.at > atMs) break;
    if (e.store !== undefined) continue;
    if (e.content === undefined) files.delete(e.key);
    else files.set(e.key, e.content);
  }
  return files;
}

/** Applies a run's changes to shared volumes due in (fromMs, toMs]. */
export function applyShared(run: ContainerRun, fromMs: number, toMs: number): void {
  for (const e of run.events) {
    if (e.at <= fromMs || e.store === undefined) continue;
    if (e.at > toMs) break;
    if (e.content === undefined) e.store.delete(e.key);
    else e.store.set(e.key, e.content);
  }
}

/**
 * A file system for a script of `container`: its own files in `own`, shared volumes read through
 * an overlay of the script's own pending changes. Changes are recorded in `events` (and applied
 * to `own`) rather than to the shared stores.
 */
/**
 * Directories an image's container starts with empty (or does not have): a file there that the
 * script did not write does not exist. Elsewhere it may come with the image, so reading a path the
 * script did not write is unknowable.
 */
const emptyAtStart = ['/tmp/', '/var/tmp/', '/dev/'];

export function scriptFs(
  files: PodFiles,
  container: JsonObject,
  own: Map<string, string>,
  events: FileEvent[] | undefined,
  o: {
    /**
     * The container runs a program the node does not follow (or was adopted after a restart): it
     * may have written anywhere, so only `own` is known of its own files.
     */
    readonly programUnknown?: boolean;
    /** Own files known to be gone (removed by an exec'd command), image files included. */
    readonly removed?: ReadonlySet<string>;
  } = {},
): ShellFs {
  const programUnknown = o.programUnknown === true;
  const removed = new Set(o.removed ?? []);
  const readOnlyRoot = objAt(container, 'securityContext')?.['readOnlyRootFilesystem'] === true;
  const messagePath = strAt(container, 'terminationMessagePath') ?? '/dev/termination-log';
  const overlay = new Map<Map<string, string>, Map<string, string | undefined>>();
  const resolve = (
    path: string,
  ): { store: Map<string, string> | undefined; key: string; readOnly?: boolean } => {
    const place = files.place(container, path);
    if ('opaque' in place) throw new ShellUnsupported(`${path} is in a ${place.opaque}`);
    // API volumes are read-only: their files are read through `read`, never written.
    if ('api' in place) return { store: undefined, key: place.key, readOnly: true };
    return place;
  };
  const read = (path: string): string | undefined => {
    const place = files.place(container, path);
    if ('api' in place) return place.api.filesAt(Infinity)?.get(place.key)?.content;
    const { store, key } = resolve(path);
    if (store === undefined) {
      if (
        own.has(key) ||
        removed.has(key) ||
        (!programUnknown && (key === messagePath || emptyAtStart.some((d) => key.startsWith(d))))
      )
        return own.get(key);
      if (programUnknown)
        throw new ShellUnsupported(`${key} may have been written by the container's program`);
      throw new ShellUnsupported(`${key} may come with the image`);
    }
    const o = overlay.get(store);
    return o?.has(key) === true ? o.get(key) : store.get(key);
  };
  const set = (path: string, content: string | undefined, at: number): void => {
    const { store, key, readOnly } = resolve(path);
    // readOnlyRootFilesystem: only volumes (and the termination message file) can be written.
    if (readOnly === true || (store === undefined && readOnlyRoot && key !== messagePath))
      throw new ShellFsError('Read-only file system');
    if (store === undefined) {
      if (content === undefined) {
        own.delete(key);
        removed.add(key);
      } else {
        own.set(key, content);
        removed.delete(key);
      }
    } else {
      const o = overlay.get(store) ?? new Map<string, string | undefined>();
      overlay.set(store, o);
      o.set(key, content);
    }
    events?.push({ at, store, key, content });
  };
  /** Directories every image has (its own others are the image's business: unknowable). */
  const rootDirs = ['/', '/tmp', '/var/tmp', '/dev', '/etc', '/proc', '/sys', '/var', '/usr', '/bin'];
  const isDir = (path: string): boolean => {
    const inVolume = files.isDirInVolume(container, path);
    if (inVolume !== undefined) return inVolume;
    const key = normalize(path);
    if (own.has(key)) return false;
    const prefix = key === '/' ? '/' : `${key}/`;
    if (rootDirs.includes(key) || [...own.keys()].some((k) => k.startsWith(prefix))) return true;
    // A volume mounted below it makes it a directory.
    if (
      objsAt(container, 'volumeMounts').some((m) =>
        normalize(strAt(m, 'mountPath') ?? '/').startsWith(prefix),
      )
    )
      return true;
    throw new ShellUnsupported(`${key} may be a directory of the image`);
  };
  return {
    read,
    isDir,
    write: (path, content, append, at) => {
      // Appending to a file that may come with the image: its earlier content is unknowable.
      const before = append ? read(path) : undefined;
      set(path, (before ?? '') + content, at);
    },
    remove: (path, at) => {
      if (read(path) === undefined) return false;
      set(path, undefined, at);
      return true;
    },
  };
}

/** What a container's environment draws on beyond the pod: the node's and the cluster's. */
export interface EnvContext {
  /** The service variables the kubelet adds (`FOO_SERVICE_HOST`, ...), by name. */
  readonly services?: ReadonlyMap<string, string>;
  /** The node's allocatable (cpu in millicores): limits a container does not set default to it. */
  readonly allocatable?: ResourceList;
  /** The pod's addresses, known to the kubelet before its status says them. */
  readonly hostIP?: string;
  readonly podIPs?: readonly string[];
  /**
   * The data of the ConfigMaps and Secrets the containers' environment names (`configmap/<name>`,
   * `secret/<name>`; null: not found), as the kubelet reads them before it starts a container.
   */
  readonly sources?: ReadonlyMap<string, Readonly<Record<string, string>> | null>;
  /** Tokens the node requested for projected serviceAccountToken sources (volume-data.ts tokenKey). */
  readonly tokens?: ReadonlyMap<string, string>;
  /** The cluster DNS server the kubelet is configured with (its clusterDNS): ClusterFirst pods use it. */
  readonly clusterDNS?: readonly string[];
}

/** The `configmap/<name>` and `secret/<name>` keys a container's environment reads. */
export function envSourceKeys(container: JsonObject): string[] {
  const keys = new Set<string>();
  for (const f of objsAt(container, 'envFrom')) {
    const cm = strAt(objAt(f, 'configMapRef'), 'name');
    const sec = strAt(objAt(f, 'secretRef'), 'name');
    if (cm !== undefined) keys.add(`configmap/${cm}`);
    if (sec !== undefined) keys.add(`secret/${sec}`);
  }
  for (const e of objsAt(container, 'env')) {
    const from = objAt(e, 'valueFrom');
    const cm = strAt(objAt(from, 'configMapKeyRef'), 'name');
    const sec = strAt(objAt(from, 'secretKeyRef'), 'name');
    if (cm !== undefined) keys.add(`configmap/${cm}`);
    if (sec !== undefined) keys.add(`secret/${sec}`);
  }
  return [...keys];
}

/** An environment variable name the kubelet accepts from envFrom (C identifier-ish). */
const envNamePattern = /^[-._a-zA-Z][-._a-zA-Z0-9]*$/;

/** The environment a container's processes see; values from Secrets and the like are unknown. */
export function containerEnv(
  pod: JsonObject,
  container: JsonObject,
  context: EnvContext = {},
): Map<string, string | undefined> {
  const meta = objAt(pod, 'metadata');
  const spec = objAt(pod, 'spec');
  const status = objAt(pod, 'status');
  const env = new Map<string, string | undefined>([
    ['PATH', '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'],
    ['HOME', '/root'],
    ['HOSTNAME', strAt(spec, 'hostname') ?? strAt(meta, 'name') ?? ''],
    ...(context.services ?? new Map<string, string>()),
  ]);
  const field = (path: string): string | undefined => {
    const fromMeta = metadataFieldPath(pod, path);
    if (fromMeta !== undefined) return fromMeta;
    switch (path) {
      case 'spec.nodeName':
        return strAt(spec, 'nodeName') ?? '';
      case 'spec.serviceAccountName':
        return strAt(spec, 'serviceAccountName') ?? '';
      case 'status.hostIP':
        return context.hostIP ?? strAt(status, 'hostIP');
      case 'status.podIP':
        return context.podIPs?.[0] ?? strAt(status, 'podIP');
      case 'status.podIPs':
        return (
          context.podIPs?.join(',') ??
          objsAt(status, 'podIPs')
            .map((p) => strAt(p, 'ip') ?? '')
            .join(',')
        );
      default:
        return undefined;
    }
  };
  // envFrom first (later sources win), then env, as the kubelet's makeEnvironmentVariables.
  for (const f of objsAt(container, 'envFrom')) {
    const cm = objAt(f, 'configMapRef');
    const sec = objAt(f, 'secretRef');
    const ref = cm ?? sec;
    const key =
      cm !== undefined ? `configmap/${strAt(cm, 'name') ?? ''}` : `secret/${strAt(sec, 'name') ?? ''}`;
    const data = context.sources?.get(key);
    // Not read, or missing while required (the container could not start): unknowable.
    if (data === undefined || (data === null && ref?.['optional'] !== true)) return unknowableEnv(env);
    for (const [k, v] of Object.entries(data ?? {})) {
      const name = `${strAt(f, 'prefix') ?? ''}${k}`;
      if (envNamePattern.test(name)) env.set(name, v);
    }
  }
  for (const e of objsAt(container, 'env')) {
    const name = strAt(e, 'name') ?? '';
    const value = strAt(e, 'value');
    const from = objAt(e, 'valueFrom');
    const fieldRef = objAt(from, 'fieldRef');
    const resourceRef = objAt(from, 'resourceFieldRef');
    const keyRef = objAt(from, 'configMapKeyRef') ?? objAt(from, 'secretKeyRef');
    if (keyRef !== undefined) {
      const kind = objAt(from, 'configMapKeyRef') !== undefined ? 'configmap' : 'secret';
      const data = context.sources?.get(`${kind}/${strAt(keyRef, 'name') ?? ''}`);
      const v = data?.[strAt(keyRef, 'key') ?? ''];
      // An optional reference to what is missing leaves the variable unset.
      if (v !== undefined) env.set(name, v);
      else if (data === undefined || keyRef['optional'] !== true) env.set(name, undefined);
      continue;
    }
    if (value !== undefined) {
      try {
        env.set(name, expandReferences(value, env));
      } catch (err) {
        if (!(err instanceof UnknownReference)) throw err;
        env.set(name, undefined);
      }
    } else if (fieldRef !== undefined) env.set(name, field(strAt(fieldRef, 'fieldPath') ?? ''));
    else if (resourceRef !== undefined)
      env.set(name, resourceField(pod, container, resourceRef, context.allocatable));
    else if (from !== undefined) env.set(name, undefined);
    else env.set(name, '');
  }
  return env;
}

/** An environment none of whose variables can be relied on: every known one becomes unknown. */
function unknowableEnv(env: Map<string, string | undefined>): Map<string, string | undefined> {
  for (const k of env.keys()) env.set(k, undefined);
  return env;
}

/** A deterministic `$RANDOM` per pod, container and restart. */
function randomSource(seed: string): () => number {
  let n = 0;
  return () => {
    const h = createHash('sha256').update(`${seed}/${n++}`).digest();
    return h.readUInt16BE(0) & 0x7fff;
  };
}

export interface StartRunOptions {
  readonly program: Program;
  readonly pod: JsonObject;
  readonly container: JsonObject;
  readonly files: PodFiles;
  /** Which run of the container this is (0 first): seeds `$RANDOM`. */
  readonly instance: number;
  /** The default behaviour's run time for pods that run to completion (undefined: until stopped). */
  readonly defaultRunMs: number | undefined;
  readonly envContext?: EnvContext;
  /** When the run starts on the pod's clock (ms): API volumes are read as of then. */
  readonly startAt?: number;
  /** The pod's network: a script that uses the image's network tools runs as time passes. */
  readonly net?: ShellNet;
}

/** A line as Go's log package writes it (LstdFlags, UTC): `2006/01/02 15:04:05 text`. */
export function goLogLine(atMs: number, text: string): string {
  const d = new Date(atMs);
  const p = (n: number): string => String(n).padStart(2, '0');
  const stamp = `${d.getUTCFullYear()}/${p(d.getUTCMonth() + 1)}/${p(d.getUTCDate())} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}`;
  return `${stamp} ${text}${text.endsWith('\n') ? '' : '\n'}`;
}

/** The sysctls the pod sets (the runtime applies them in the pod's namespaces before it starts). */
export function podSysctls(pod: JsonObject): Map<string, string> {
  const out = new Map<string, string>();
  for (const s of objsAt(objAt(objAt(pod, 'spec'), 'securityContext'), 'sysctls')) {
    const name = strAt(s, 'name');
    if (name !== undefined) out.set(name.replaceAll('/', '.'), strAt(s, 'value') ?? '');
  }
  return out;
}

/** The files the kubelet puts into every container of the pod (/etc/hosts, /etc/resolv.conf), by path. */
export function kubeletFiles(
  pod: JsonObject,
  context: EnvContext | undefined,
  files: PodFiles,
): Map<string, string> {
  // On the host network the container sees the node's own file.
  const hosts =
    objAt(pod, 'spec')?.['hostNetwork'] === true
      ? files.nodeFile('/etc/hosts')
      : managedEtcHosts(pod, context?.podIPs ?? []);
  const out = new Map<string, string>();
  if (hosts !== undefined) out.set('/etc/hosts', hosts);
  const resolv = podResolvConf(pod, context?.clusterDNS);
  if (resolv !== undefined) out.set('/etc/resolv.conf', resolv);
  return out;
}

/** Works out a run of the container from its start. */
export function startRun(o: StartRunOptions): ContainerRun {
  const fallback = (): ContainerRun => ({
    program: o.program,
    known: false,
    exitAfterMs: o.defaultRunMs,
    exitCode: 0,
    events: [],
    output: [],
    outputKnown: false,
  });
  if (o.program.kind === 'unknown') return fallback();
  if (o.program.kind === 'mounttest') {
    try {
      return runMounttest({
        program: o.program,
        pod: o.pod,
        container: o.container,
        files: o.files,
        startAt: o.startAt ?? 0,
      });
    } catch (err) {
      if (err instanceof MounttestUnknowable) return fallback();
      throw err;
    }
  }
  // $RANDOM and logs-generator's random parts: one seed per pod, container and restart.
  const seed = `${strAt(objAt(o.pod, 'metadata'), 'uid') ?? ''}/${strAt(o.container, 'name') ?? ''}/${o.instance}`;
  if (o.program.kind === 'logs-generator') {
    return {
      program: o.program,
      known: true,
      exitAfterMs: o.program.flags.durationMs,
      exitCode: 0,
      events: [],
      output: logsGeneratorOutput(o.program.flags, o.startAt ?? 0, randomSource(seed)),
      outputKnown: true,
    };
  }
  if (o.program.kind === 'nnp') {
    // The runtime sets no_new_privs only when allowPrivilegeEscalation is false; then the setuid
    // bit is ignored and the effective uid stays the container's user.
    const noNewPrivs = objAt(o.container, 'securityContext')?.['allowPrivilegeEscalation'] === false;
    const euid = noNewPrivs ? identityOf(o.pod, o.container).uid : 0;
    return {
      program: o.program,
      known: true,
      exitAfterMs: 0,
      exitCode: 0,
      events: [],
      output: [{ at: 0, text: `Effective uid: ${euid}\n` }],
      outputKnown: true,
    };
  }
  if (o.program.kind === 'resolv-reader') {
    const conf = kubeletFiles(o.pod, o.envContext, o.files).get('/etc/resolv.conf');
    if (conf === undefined) return fallback();
    const r = agnhostResolvReader(conf, o.program.field);
    return {
      program: o.program,
      known: true,
      exitAfterMs: 0,
      exitCode: r.code,
      events: [],
      output: [{ at: 0, text: r.stdout + r.stderr }],
      outputKnown: true,
    };
  }
  if (o.program.kind === 'server') {
    const printed = o.program.output;
    const logged = (o.program.startLog ?? []).map((line) => goLogLine(o.startAt ?? 0, line)).join('');
    const text = (printed ?? '') + logged;
    return {
      program: o.program,
      known: true,
      exitAfterMs: undefined,
      exitCode: 0,
      events: [],
      output: text === '' ? [] : [{ at: 0, text }],
      outputKnown: printed !== undefined || o.program.startLog !== undefined,
    };
  }
  const events: FileEvent[] = [];
  const output: { at: number; text: string }[] = [];
  const identity = identityOf(o.pod, o.container);
  const shellOptions: ShellOptions = {
    fs: scriptFs(o.files, o.container, kubeletFiles(o.pod, o.envContext, o.files), events),
    env: containerEnv(o.pod, o.container, o.envContext),
    openEnv: true,
    args: o.program.args,
    ...(o.program.xtrace === true ? { xtrace: true } : {}),
    hostname: strAt(objAt(o.pod, 'spec'), 'hostname') ?? strAt(objAt(o.pod, 'metadata'), 'name') ?? '',
    ...(identity.explicit ? { identity } : {}),
    sysctls: podSysctls(o.pod),
    ...ipToolOption(imageName(strAt(o.container, 'image') ?? ''), o.pod, o.container),
    random: randomSource(seed),
    onOutput: (at, _fd, text) => output.push({ at, text }),
  };
  const names = commandNames(o.program.list);
  if (o.net !== undefined && networkCommands.some((c) => names.has(c))) {
    return (
      steppedRun(o.program, events, output, {
        ...shellOptions,
        stepsPerWait: true,
        net: o.net,
        netTools: netToolsOf(imageName(strAt(o.container, 'image') ?? '')),
      }) ?? fallback()
    );
  }
  try {
    const r = runShell(o.program.list, shellOptions);
    return {
      program: o.program,
      known: true,
      exitAfterMs: r.code === undefined ? undefined : r.elapsedMs,
      exitCode: r.code ?? 0,
      events,
      output,
      outputKnown: true,
    };
  } catch (err) {
    if (err instanceof ShellUnsupported) return fallback();
    throw err;
  }
}

/**
 * A script run as time passes (it asks the network): what it does up to a moment is worked out
 * when that moment comes, so each answer is the network's at that time. Undefined when it cannot
 * start (it does at once what the simulator does not model). Should it later do such a thing, it
 * is followed no further: its output becomes unknown and it runs until stopped.
 */
function steppedRun(
  program: Extract<Program, { kind: 'script' }>,
  events: FileEvent[],
  output: { at: number; text: string }[],
  options: ShellOptions,
): ContainerRun | undefined {
  const shell = startShell(program.list, options);
  let lost = false;
  const follow = (toMs: number): void => {
    if (lost) return;
    try {
      shell.advance(toMs);
    } catch (err) {
      if (!(err instanceof ShellUnsupported)) throw err;
      lost = true;
    }
  };
  follow(0);
  if (lost) return undefined;
  return {
    program,
    known: true,
    get exitAfterMs() {
      const r = shell.result;
      return lost || r === undefined || r.code === undefined ? undefined : r.elapsedMs;
    },
    get exitCode() {
      return shell.result?.code ?? 0;
    },
    events,
    output,
    get outputKnown() {
      return !lost;
    },
    follow,
    resumeAt: () => (lost || shell.result !== undefined ? undefined : shell.elapsedMs),
  };
}

/** What the run printed by `atMs`, as one string. */
export function outputUntil(run: ContainerRun, atMs: number): string {
  let s = '';
  for (const o of run.output) if (o.at <= atMs) s += o.text;
  return s;
}
