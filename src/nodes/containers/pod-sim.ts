/**
 * A pod's life on a simulated node, as the kubelet (v1.27) would live it, from the pod's spec:
 * init containers one after another, then the app containers; each container runs its program
 * (program.ts, container-run.ts) in virtual time; exits restart per restartPolicy with the
 * kubelet's crash-loop back-off (at once, then 10 s doubling to 5 min, reset after 10 min);
 * startup, readiness and liveness probes are evaluated at their ticks (initialDelaySeconds, then
 * every periodSeconds) with their thresholds, and a failed liveness or startup probe kills the
 * container. The pod's phase and conditions follow the kubelet's rules.
 *
 * The simulation is a pure state machine over time: `advance(now)` processes what was due and
 * `nextEventAt()` says when the status can next change, so the node wakes only then.
 */
import type { JsonObject } from '../../util/json.js';
import { metaOf, numAt, objAt, objsAt, rfc3339, strAt, strsAt } from '../json.js';
import {
  baseStatus,
  condition,
  containerID,
  imageID,
  normalizeImage,
  scheduledCondition,
} from '../pod-status.js';
import type { PodRuntime } from '../pod-status.js';
import {
  applyShared,
  containerEnv,
  goLogLine,
  kubeletFiles,
  ownFilesAt,
  outputUntil,
  scriptFs,
  startRun,
} from './container-run.js';
import type { ContainerRun, EnvContext } from './container-run.js';
import { PodFiles } from './pod-files.js';
import { subPathConfigError, withExpandedSubPaths } from './subpath-expr.js';
import {
  backOffEvent,
  containerFieldPath,
  failedEvent,
  killingEvent,
  startEvents,
} from './kubelet-events.js';
import type { KubeletEvent } from './kubelet-events.js';
import type { VolumeSources } from './volume-data.js';
import { argvProgram, containerProgram, imageMissing } from './program.js';
import { execInContainer } from './exec.js';
import { imageFiles } from './image-files.js';
import type { ExecOutcome } from './exec.js';
import type { Listener, Program } from './program.js';
import { podHostname } from './etc-hosts.js';
import { ShellUnsupported } from './shell-parse.js';
import { runShell } from './shell-run.js';
import type { ShellFs } from './shell-run.js';
import { NetFailure } from './shell-net.js';
import type { ShellNet } from './shell-net.js';

type ProbeKind = 'startup' | 'readiness' | 'liveness';

/** The startRun option for a network that may not be known yet. */
function netOf(net: ShellNet | undefined): { net?: ShellNet } {
  return net === undefined ? {} : { net };
}

interface Probe {
  readonly kind: ProbeKind;
  readonly spec: JsonObject;
  successes: number;
  failures: number;
  /** The next tick (absolute ms). */
  next: number;
}

interface Terminated {
  readonly exitCode: number;
  readonly reason: string;
  readonly startedAt: number;
  readonly finishedAt: number;
  readonly message: string;
  readonly containerID: string;
}

/** A running instance of a container. */
interface Instance {
  readonly run: ContainerRun;
  readonly startedAt: number;
  readonly id: string;
  ready: boolean;
  started: boolean;
  readonly probes: Probe[];
  /** How far (ms after start) its changes to shared volumes are applied. */
  appliedMs: number;
  /** Changes `kubectl exec` commands made to its own files, in time order (undefined: removed). */
  readonly execOwn: { readonly at: number; readonly key: string; readonly content: string | undefined }[];
  /** What its server keeps between requests (guestbook's store); gone with the instance. */
  readonly serverState: Map<string, unknown>;
  /** What its server logged as it served, ms after its start (undefined: something unknowable). */
  served: { readonly at: number; readonly text: string }[] | undefined;
}

interface Container {
  /** The container's spec; from its start, with each subPathExpr expanded into subPath. */
  spec: JsonObject;
  readonly name: string;
  readonly init: boolean;
  /** An ephemeral container (`kubectl debug`): started when added, never restarted. */
  readonly ephemeral: boolean;
  readonly program: Program;
  restarts: number;
  current: Instance | undefined;
  /** Exited and not restarting (or exited, waiting for its restart: see restartAt). */
  exited: Terminated | undefined;
  /** The previous instance's end (lastState). */
  last: Terminated | undefined;
  /** The instance that exited last, and the one before the current (for `logs --previous`). */
  exitedInstance: Instance | undefined;
  previousInstance: Instance | undefined;
  /** When a restart is due (undefined: none). */
  restartAt: number | undefined;
  /** The crash-loop back-off: the current delay and when it was last set (undefined: none). */
  backoffMs: number | undefined;
  backoffSetAt: number;
  /** A back-off message while waiting (CrashLoopBackOff). */
  waiting: { readonly reason: string; readonly message?: string } | undefined;
  /** Init containers: exited 0. */
  done: boolean;
  /** Since when its image fails to pull (it never starts). */
  pullFailedAt: number | undefined;
  /** Why the container cannot be created (CreateContainerConfigError); it never starts. */
  configError: string | undefined;
}

/** A container instance's output, at absolute times (ms). */
export interface ContainerOutput {
  readonly startedAt: number;
  readonly finishedAt?: number;
  readonly chunks: readonly { readonly at: number; readonly text: string }[];
}

/** What listens on a port of a pod (PodSim.listening). */
export type PodListener =
  | {
      readonly kind: 'server';
      readonly container: string;
      readonly listener: Listener;
      readonly hostname: string;
      readonly fs: ShellFs;
      readonly state: Map<string, unknown>;
      /** Adds a line the server logs (Go's log format) to the container's output. */
      readonly log: (text: string | undefined) => void;
    }
  | { readonly kind: 'refused' }
  | { readonly kind: 'unknowable'; readonly reason: string };

/** What a command run in a container came to: the container may not be running. */
export type PodExecOutcome = ExecOutcome | { readonly kind: 'not-running' };

export interface PodSimOptions {
  readonly pod: JsonObject;
  /** The node's hostPath files, shared by its pods. */
  readonly nodeFiles: Map<string, string>;
  /** When the first containers start (ms). */
  readonly startAt: number;
  /** Run time of a container whose program is unknown, in a pod that runs to completion. */
  readonly defaultRunMs: number;
  /**
   * The pod was already running before this node (re)started: its programs are not followed (they
   * would start over), only the default behaviour and the probes.
   */
  readonly adopted?: boolean;
  /** The service variables and node allocatable the containers' environment draws on. */
  readonly envContext?: EnvContext;
  /** The pod's network, for lifecycle hooks (undefined while it is not known). */
  readonly net?: () => ShellNet | undefined;
}

const initialBackoffMs = 10_000;
/** How long a failed pull shows ErrImagePull before ImagePullBackOff. */
const pullBackOffAfterMs = 1000;
const maxBackoffMs = 300_000;

/** Go's time.Duration String for whole seconds: 10s, 1m20s, 5m0s. */
function goDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  return `${m}m${s % 60}s`;
}

function num(probe: JsonObject, key: string, fallback: number): number {
  const v = numAt(probe, key);
  return v === undefined || v <= 0 ? fallback : v;
}

export class PodSim {
  /** The pod as last seen (observe()): what containers started from now on read. */
  #pod: JsonObject;
  /** Events the kubelet would have recorded since the last takeEvents(). */
  #events: KubeletEvent[] = [];
  readonly #files: PodFiles;
  /** The options but the pod, which #pod holds (so an older copy is not kept alive). */
  readonly #o: Omit<PodSimOptions, 'pod'>;
  readonly #init: Container[];
  readonly #app: Container[];
  readonly #ephemeral: Container[] = [];
  readonly #make: (c: JsonObject, init: boolean, ephemeral?: boolean) => Container;
  readonly #policy: string;
  /** The app containers have been started. */
  #appStarted = false;
  /** An init container failed under restartPolicy Never. */
  #initFailed = false;
  /** The pod is being deleted: its containers were stopped and none restarts. */
  #stopped = false;
  /** When spec.activeDeadlineSeconds runs out (ms), and whether it has. */
  #deadlineAt: number | undefined;
  #deadlineExceeded = false;
  readonly #probePrograms = new Map<JsonObject, Program>();
  /** The latest time advanced to. */
  #now = 0;

  constructor(o: PodSimOptions) {
    const { pod, ...rest } = o;
    this.#o = rest;
    this.#pod = pod;
    const ctx = o.envContext;
    this.#files = new PodFiles(
      pod,
      o.nodeFiles,
      {
        ...(ctx?.sources !== undefined ? { objects: ctx.sources } : {}),
        ...(ctx?.tokens !== undefined ? { tokens: ctx.tokens } : {}),
        ...(ctx?.allocatable !== undefined ? { allocatable: ctx.allocatable } : {}),
      },
      o.startAt,
    );
    const spec = objAt(pod, 'spec');
    this.#policy = strAt(spec, 'restartPolicy') ?? 'Always';
    const make = (c: JsonObject, init: boolean, ephemeral = false): Container => ({
      spec: c,
      name: strAt(c, 'name') ?? '',
      init,
      ephemeral,
      program:
        rest.adopted === true
          ? { kind: 'unknown', reason: 'adopted' }
          : containerProgram(c, containerEnv(this.#pod, c, rest.envContext)),
      restarts: 0,
      current: undefined,
      exited: undefined,
      last: undefined,
      exitedInstance: undefined,
      previousInstance: undefined,
      restartAt: undefined,
      backoffMs: undefined,
      backoffSetAt: 0,
      waiting: undefined,
      done: false,
      pullFailedAt: undefined,
      configError: undefined,
    });
    this.#make = make;
    this.#init = o.adopted === true ? [] : objsAt(spec, 'initContainers').map((c) => make(c, true));
    this.#app = objsAt(spec, 'containers').map((c) => make(c, false));
    if (this.#init.length > 0) this.#start(this.#init[0]!, o.startAt);
    else this.#startApp(o.startAt);
  }

  #runsToCompletion(): boolean {
    return this.#policy === 'Never' || this.#policy === 'OnFailure';
  }

  #start(c: Container, at: number): void {
    if (imageMissing(strAt(c.spec, 'image') ?? '')) {
      // ErrImagePull, then ImagePullBackOff for ever: the container never starts.
      c.pullFailedAt = at;
      return;
    }
    // The environment is worked out only for a container with a subPathExpr.
    const configError = subPathConfigError(c.spec, () => containerEnv(this.#pod, c.spec, this.#o.envContext));
    if (configError !== undefined) {
      // The kubelet retries at every sync and fails the same way: the container stays waiting.
      c.configError = configError;
      this.#events.push(failedEvent(containerFieldPath(c.name, c.init, c.ephemeral), configError));
      return;
    }
    c.spec = withExpandedSubPaths(c.spec, () => containerEnv(this.#pod, c.spec, this.#o.envContext));
    this.#files.makeSubPaths(c.spec);
    this.#events.push(...startEvents(c.spec, containerFieldPath(c.name, c.init, c.ephemeral)));
    const run = startRun({
      program: c.program,
      pod: this.#pod,
      container: c.spec,
      files: this.#files,
      instance: c.restarts,
      startAt: at,
      ...(this.#o.envContext !== undefined ? { envContext: this.#o.envContext } : {}),
      ...netOf(this.#o.net?.()),
      // Init containers of unknown programs finish at once; app containers keep the default.
      defaultRunMs: c.init ? 0 : this.#runsToCompletion() ? this.#o.defaultRunMs : undefined,
    });
    const probes: Probe[] = [];
    for (const kind of ['startup', 'readiness', 'liveness'] as const) {
      const spec = objAt(c.spec, `${kind}Probe`);
      if (spec === undefined || c.init) continue;
      probes.push({
        kind,
        spec,
        successes: 0,
        failures: 0,
        next: at + (numAt(spec, 'initialDelaySeconds') ?? 0) * 1000,
      });
    }
    const hasStartup = probes.some((p) => p.kind === 'startup');
    const hasReadiness = probes.some((p) => p.kind === 'readiness');
    c.current = {
      run,
      startedAt: at,
      id: containerID(strAt(metaOf(this.#pod), 'uid') ?? '', c.name, c.restarts),
      started: !hasStartup,
      ready: !hasStartup && !hasReadiness,
      probes,
      appliedMs: -1,
      execOwn: [],
      serverState: new Map(),
      served: [],
    };
    c.exited = undefined;
    c.waiting = undefined;
    c.restartAt = undefined;
    this.#applyShared(c, at);
    this.#runHook(c, 'postStart', at);
  }

  /**
   * Runs a container's postStart or preStop hook for its effects, as the kubelet does right after
   * the start and before the stop: an exec command in the container (with the pod's network), or
   * an HTTP GET. A hook the simulator cannot run (no network yet, an unknowable command) is
   * skipped; a failing hook does not kill the container here.
   */
  #runHook(c: Container, which: 'postStart' | 'preStop', at: number): void {
    const hook = objAt(objAt(c.spec, 'lifecycle'), which);
    if (hook === undefined || c.current === undefined) return;
    const net = this.#o.net?.();
    const exec = objAt(hook, 'exec');
    if (exec !== undefined) {
      this.exec(c.name, strsAt(exec, 'command'), '', at, net);
      return;
    }
    const http = objAt(hook, 'httpGet');
    if (http === undefined || net === undefined) return;
    const rawPort = http['port'];
    const named = objsAt(c.spec, 'ports').find((p) => strAt(p, 'name') === rawPort);
    const port = typeof rawPort === 'number' ? rawPort : numAt(named, 'containerPort');
    const ip = strAt(http, 'host') ?? this.#o.envContext?.podIPs?.[0];
    if (port === undefined || ip === undefined) return;
    const target = strAt(http, 'path') ?? '/';
    const q = target.indexOf('?');
    const headers: Record<string, string> = { 'user-agent': 'kube-lifecycle/1.27', accept: '*/*' };
    for (const h of objsAt(http, 'httpHeaders'))
      headers[(strAt(h, 'name') ?? '').toLowerCase()] = strAt(h, 'value') ?? '';
    try {
      net.http(ip, port, {
        method: 'GET',
        path: q < 0 ? target : target.slice(0, q),
        rawQuery: q < 0 ? '' : target.slice(q + 1),
        headers,
        body: '',
        tls: strAt(http, 'scheme') === 'HTTPS',
      });
    } catch (err) {
      if (!(err instanceof NetFailure) && !(err instanceof ShellUnsupported)) throw err;
    }
  }

  #startApp(at: number): void {
    this.#appStarted = true;
    for (const c of this.#app) this.#start(c, at);
  }

  #applyShared(c: Container, now: number): void {
    const inst = c.current;
    if (inst === undefined) return;
    const to = now - inst.startedAt;
    // A run worked out as time passes runs on to now first.
    if (inst.run.resumeAt !== undefined) inst.run.follow?.(to);
    if (to <= inst.appliedMs) return;
    applyShared(inst.run, inst.appliedMs, to);
    inst.appliedMs = to;
  }

  #all(): Container[] {
    return [...this.#init, ...this.#app, ...this.#ephemeral];
  }

  /** The termination message: the file at terminationMessagePath, or the log's tail on error. */
  #message(c: Container, inst: Instance, exitCode: number, afterMs: number): string {
    const path = strAt(c.spec, 'terminationMessagePath') ?? '/dev/termination-log';
    let text = '';
    if (inst.run.known) {
      try {
        text = this.#containerFs(c, inst, afterMs).read(path) ?? '';
      } catch {
        text = '';
      }
      if (
        text === '' &&
        exitCode !== 0 &&
        strAt(c.spec, 'terminationMessagePolicy') === 'FallbackToLogsOnError'
      ) {
        const lines = outputUntil(inst.run, afterMs).split('\n');
        text = lines.slice(-80).join('\n');
        if (text.length > 2048) text = text.slice(-2048);
      }
    }
    return text.length > 4096 ? text.slice(0, 4096) : text;
  }

  /** The container ends at `at` (its program exited, or it was killed) and may restart. */
  #exit(c: Container, at: number, exitCode: number): void {
    const inst = c.current;
    if (inst === undefined) return;
    if (this.#stopped) {
      c.current = undefined;
      c.exited = {
        exitCode,
        reason: exitCode === 0 ? 'Completed' : 'Error',
        startedAt: inst.startedAt,
        finishedAt: at,
        message: '',
        containerID: inst.id,
      };
      return;
    }
    this.#applyShared(c, at);
    c.current = undefined;
    c.exitedInstance = inst;
    const t: Terminated = {
      exitCode,
      reason: exitCode === 0 ? 'Completed' : 'Error',
      startedAt: inst.startedAt,
      finishedAt: at,
      message: this.#message(c, inst, exitCode, at - inst.startedAt),
      containerID: inst.id,
    };
    c.exited = t;
    if (c.init && exitCode === 0) {
      c.done = true;
      const next = this.#init.find((x) => !x.done);
      if (next !== undefined) this.#start(next, at);
      else this.#startApp(at);
      return;
    }
    const restart = c.ephemeral
      ? false
      : c.init
        ? this.#policy !== 'Never'
        : this.#policy === 'Always' || (this.#policy === 'OnFailure' && exitCode !== 0);
    if (!restart) {
      if (c.init) this.#initFailed = true;
      return;
    }
    // The kubelet's back-off: the first restart at once, then the delay doubles from 10 s to
    // 5 min; an entry not touched for 10 min starts over.
    if (c.backoffMs === undefined || at - c.backoffSetAt > 2 * maxBackoffMs) {
      c.backoffMs = initialBackoffMs;
      c.backoffSetAt = at;
      c.restartAt = at;
    } else {
      const meta = metaOf(this.#pod);
      const pod = `${strAt(meta, 'name') ?? ''}_${strAt(meta, 'namespace') ?? ''}(${strAt(meta, 'uid') ?? ''})`;
      c.waiting = {
        reason: 'CrashLoopBackOff',
        message: `back-off ${goDuration(c.backoffMs)} restarting failed container=${c.name} pod=${pod}`,
      };
      this.#events.push(backOffEvent(containerFieldPath(c.name, c.init, c.ephemeral), c.name, pod));
      c.restartAt = at + c.backoffMs;
    }
  }

  #restart(c: Container, at: number): void {
    if (c.waiting !== undefined && c.backoffMs !== undefined) {
      c.backoffMs = Math.min(2 * c.backoffMs, maxBackoffMs);
      c.backoffSetAt = at;
    }
    c.last = c.exited;
    c.previousInstance = c.exitedInstance;
    c.restarts += 1;
    this.#start(c, at);
  }

  #probeProgram(handler: JsonObject): Program {
    let p = this.#probePrograms.get(handler);
    if (p === undefined) {
      p = argvProgram(strsAt(handler, 'command'));
      this.#probePrograms.set(handler, p);
    }
    return p;
  }

  /** A probe's result at `at`: true succeeds; a probe whose outcome is unknowable succeeds. */
  #probe(c: Container, inst: Instance, spec: JsonObject, at: number): boolean {
    const since = at - inst.startedAt;
    const exec = objAt(spec, 'exec');
    if (exec !== undefined) {
      const program = this.#probeProgram(exec);
      if (program.kind !== 'script' || !inst.run.known) return true;
      try {
        const timeoutMs = num(spec, 'timeoutSeconds', 1) * 1000;
        const r = runShell(program.list, {
          fs: this.#containerFs(c, inst, since),
          env: containerEnv(this.#pod, c.spec, this.#o.envContext),
          openEnv: true,
          args: program.args,
          horizonMs: timeoutMs,
        });
        return r.code === 0 && r.elapsedMs <= timeoutMs;
      } catch (err) {
        if (err instanceof ShellUnsupported) return true;
        throw err;
      }
    }
    const http = objAt(spec, 'httpGet');
    const tcp = objAt(spec, 'tcpSocket');
    const grpc = objAt(spec, 'grpc');
    const target = http ?? tcp ?? grpc;
    if (target === undefined) return true;
    let port: number | undefined;
    const raw = target['port'];
    if (typeof raw === 'number') port = raw;
    else if (typeof raw === 'string') {
      const named = objsAt(c.spec, 'ports').find((p) => strAt(p, 'name') === raw);
      port =
        named === undefined ? (/^\d+$/.test(raw) ? Number(raw) : undefined) : numAt(named, 'containerPort');
    }
    // A named port the container does not declare: the kubelet cannot probe it.
    if (port === undefined) return false;
    const program = inst.run.program;
    if (program.kind === 'unknown') return true;
    if (program.kind !== 'server') return false;
    const l = program.listeners.get(port);
    if (l === undefined) return false;
    if (grpc !== undefined) return l.protocol === 'grpc';
    if (http !== undefined)
      return (
        l.protocol === 'http' &&
        (l.healthy?.(strAt(http, 'path') ?? '/', since, (path) => this.#fileExists(c, inst, since, path)) ??
          true)
      );
    return true;
  }

  /**
   * An instance's own files `sinceMs` into its run: what the kubelet put there (/etc/hosts), what
   * its program wrote by then, and what exec'd commands changed.
   */
  #ownFiles(c: Container, inst: Instance, sinceMs: number): Map<string, string> {
    const files = imageFiles(strAt(c.spec, 'image') ?? '');
    for (const [k, v] of kubeletFiles(this.#pod, this.#o.envContext, this.#files)) files.set(k, v);
    for (const [k, v] of ownFilesAt(inst.run, sinceMs)) files.set(k, v);
    for (const e of inst.execOwn) {
      if (e.at > inst.startedAt + sinceMs) break;
      if (e.content === undefined) files.delete(e.key);
      else files.set(e.key, e.content);
    }
    return files;
  }

  /** A read view of an instance's files `sinceMs` into its run (probes, the termination message). */
  #containerFs(c: Container, inst: Instance, sinceMs: number): ShellFs {
    return scriptFs(
      this.#files,
      c.spec,
      this.#ownFiles(c, inst, sinceMs),
      undefined,
      this.#fsOptions(inst, sinceMs),
    );
  }

  /** How an instance's own files read: its program followed or not, what exec'd commands removed. */
  #fsOptions(inst: Instance, sinceMs: number): { programUnknown: boolean; removed: ReadonlySet<string> } {
    const removed = new Set<string>();
    for (const e of inst.execOwn) {
      if (e.at > inst.startedAt + sinceMs) break;
      if (e.content === undefined) removed.add(e.key);
      else removed.delete(e.key);
    }
    return { programUnknown: !inst.run.known, removed };
  }

  /** Whether a file of the container exists `sinceMs` into its run; undefined: not known. */
  #fileExists(c: Container, inst: Instance, sinceMs: number, path: string): boolean | undefined {
    try {
      return this.#containerFs(c, inst, sinceMs).read(path) !== undefined;
    } catch (err) {
      if (err instanceof ShellUnsupported) return undefined;
      throw err;
    }
  }

  /**
   * Runs a command in a running container (`kubectl exec`) at `now`: what it printed and its exit
   * status, or why the simulator cannot know them; its changes to files stay (its own files for
   * the rest of this instance, shared volumes for the pod).
   */
  exec(
    container: string,
    argv: readonly string[],
    stdin: string,
    now: number,
    net?: ShellNet,
  ): PodExecOutcome {
    const c = this.#all().find((x) => x.name === container);
    const inst = c?.current;
    if (c === undefined || inst === undefined) return { kind: 'not-running' };
    this.#applyShared(c, now);
    const own = this.#ownFiles(c, inst, now - inst.startedAt);
    const out = execInContainer({
      argv,
      stdin,
      pod: this.#pod,
      container: c.spec,
      files: this.#files,
      own,
      ...this.#fsOptions(inst, now - inst.startedAt),
      ...(this.#o.envContext !== undefined ? { envContext: this.#o.envContext } : {}),
      ...(net !== undefined ? { net } : {}),
    });
    if (out.kind === 'ran') {
      for (const e of out.events) {
        if (e.store === undefined) inst.execOwn.push({ at: now, key: e.key, content: e.content });
        else if (e.content === undefined) e.store.delete(e.key);
        else e.store.set(e.key, e.content);
      }
    }
    return out;
  }

  /**
   * What listens on `port` of the pod now: a running container's server (with what it answers
   * from), nothing (the connection is refused), or a program the node does not follow.
   */
  listening(port: number, now: number, protocol: 'tcp' | 'udp' = 'tcp'): PodListener {
    let unknown: string | undefined;
    for (const c of this.#all()) {
      const inst = c.current;
      if (inst === undefined) continue;
      const program = inst.run.program;
      if (program.kind === 'unknown') {
        unknown ??= `container ${JSON.stringify(c.name)} runs ${program.reason}`;
        continue;
      }
      if (program.kind !== 'server') continue;
      const udp = program.udp?.get(port);
      const listener: Listener | undefined =
        protocol === 'tcp' ? program.listeners.get(port) : udp && { protocol: 'tcp', raw: udp };
      if (listener === undefined) continue;
      this.#applyShared(c, now);
      return {
        kind: 'server',
        container: c.name,
        listener,
        hostname: podHostname(this.#pod),
        fs: this.#containerFs(c, inst, now - inst.startedAt),
        state: inst.serverState,
        log: (text) => {
          if (text === undefined) inst.served = undefined;
          else inst.served?.push({ at: now - inst.startedAt, text: goLogLine(now, text) });
        },
      };
    }
    // A program the node does not follow may be the one listening.
    return unknown === undefined ? { kind: 'refused' } : { kind: 'unknowable', reason: unknown };
  }

  /** From when a probe's result stays what it is (its inputs change no more). */
  #stableFrom(inst: Instance, spec: JsonObject): number {
    // A run worked out as time passes may still change what a probe sees.
    if (inst.run.resumeAt?.() !== undefined) return Infinity;
    if (objAt(spec, 'exec') !== undefined) {
      const last = inst.run.events.at(-1);
      return inst.startedAt + (last?.at ?? 0);
    }
    const program = inst.run.program;
    if (
      objAt(spec, 'httpGet') !== undefined &&
      program.kind === 'server' &&
      program.name === 'agnhost liveness'
    )
      return inst.startedAt + 10_001;
    return inst.startedAt;
  }

  /** Whether the probe can change nothing any more (it need not be ticked). */
  #settled(c: Container, inst: Instance, p: Probe): boolean {
    if (!this.#probeActive(inst, p)) return true;
    if (p.next < this.#stableFrom(inst, p.spec)) return false;
    const ok = this.#probe(c, inst, p.spec, p.next);
    if (p.kind === 'readiness') return inst.ready === ok;
    return ok && (p.kind === 'liveness' || inst.started);
  }

  #probeActive(inst: Instance, p: Probe): boolean {
    return p.kind === 'startup' ? !inst.started : inst.started;
  }

  #tick(c: Container, inst: Instance, p: Probe, at: number): void {
    const period = num(p.spec, 'periodSeconds', 10) * 1000;
    p.next = at + period;
    if (!this.#probeActive(inst, p)) return;
    const ok = this.#probe(c, inst, p.spec, at);
    if (ok) {
      p.successes += 1;
      p.failures = 0;
    } else {
      p.failures += 1;
      p.successes = 0;
    }
    const successThreshold = p.kind === 'readiness' ? num(p.spec, 'successThreshold', 1) : 1;
    const failureThreshold = num(p.spec, 'failureThreshold', 3);
    switch (p.kind) {
      case 'readiness':
        if (ok && p.successes >= successThreshold) inst.ready = true;
        if (!ok && p.failures >= failureThreshold) inst.ready = false;
        return;
      case 'startup':
        if (ok) {
          inst.started = true;
          inst.ready = !inst.probes.some((q) => q.kind === 'readiness');
          // Readiness and liveness begin now; their initial delays count from the start.
          for (const q of inst.probes) if (q.kind !== 'startup') q.next = Math.max(q.next, at);
        } else if (p.failures >= failureThreshold) this.#exit(c, at, 137);
        return;
      case 'liveness':
        if (!ok && p.failures >= failureThreshold) this.#exit(c, at, 137);
    }
  }

  /** The next time something is due inside the simulation (exits, restarts, probe ticks). */
  #nextInternal(wake: boolean): number | undefined {
    let next: number | undefined;
    const consider = (t: number | undefined): void => {
      if (t !== undefined && (next === undefined || t < next)) next = t;
    };
    if (this.#deadlineAt !== undefined && !this.#deadlineExceeded && !this.#stopped && !this.terminal())
      consider(this.#deadlineAt);
    for (const c of this.#all()) {
      consider(c.restartAt);
      if (wake && c.pullFailedAt !== undefined && c.pullFailedAt + pullBackOffAfterMs > this.#now)
        consider(c.pullFailedAt + pullBackOffAfterMs);
      const inst = c.current;
      if (inst === undefined) continue;
      if (inst.run.exitAfterMs !== undefined) consider(inst.startedAt + inst.run.exitAfterMs);
      const resume = inst.run.resumeAt?.();
      if (resume !== undefined) consider(inst.startedAt + resume);
      for (const p of inst.probes) {
        if (wake ? !this.#settled(c, inst, p) : this.#probeActive(inst, p)) consider(p.next);
      }
    }
    return next;
  }

  /** Processes everything due up to `now`. */
  advance(now: number): void {
    this.#now = Math.max(this.#now, now);
    for (let guard = 0; guard < 100_000; guard++) {
      const t = this.#nextInternal(false);
      if (t === undefined || t > now) break;
      if (
        this.#deadlineAt !== undefined &&
        this.#deadlineAt <= t &&
        !this.#deadlineExceeded &&
        !this.#stopped
      ) {
        // Past the deadline: the containers are killed and the pod fails.
        this.#stopAll(t, 137);
        this.#deadlineExceeded = true;
        continue;
      }
      // Skip ticks of probes that cannot change anything: a long-idle pod catches up at once.
      let progressed = false;
      for (const c of this.#all()) {
        if (c.restartAt !== undefined && c.restartAt <= t) {
          this.#restart(c, t);
          progressed = true;
          continue;
        }
        const inst = c.current;
        if (inst === undefined) continue;
        const resume = inst.run.resumeAt?.();
        if (resume !== undefined && inst.startedAt + resume <= t) {
          inst.run.follow?.(t - inst.startedAt);
          progressed = true;
        }
        if (inst.run.exitAfterMs !== undefined && inst.startedAt + inst.run.exitAfterMs <= t) {
          this.#exit(c, t, inst.run.exitCode);
          progressed = true;
          continue;
        }
        for (const p of inst.probes) {
          if (p.next > t || c.current !== inst) continue;
          this.#applyShared(c, t);
          if (this.#settled(c, inst, p)) {
            const period = num(p.spec, 'periodSeconds', 10) * 1000;
            p.next += Math.max(1, Math.ceil((now - p.next + 1) / period)) * period;
          } else this.#tick(c, inst, p, t);
          progressed = true;
        }
      }
      if (!progressed) break;
    }
    for (const c of this.#all()) this.#applyShared(c, now);
  }

  /**
   * The pod's spec.activeDeadlineSeconds (it may change), counted from status.startTime: when it
   * runs out the kubelet kills the containers and fails the pod (DeadlineExceeded).
   */
  setActiveDeadline(deadlineAt: number | undefined): void {
    this.#deadlineAt = deadlineAt;
  }

  /**
   * Stops every container for the pod's deletion (they end with `exitCode`, as the node's default
   * behaviour has it: 0) and restarts none; the phase becomes terminal, as for the kubelet's
   * terminal pods.
   */
  stop(at: number, exitCode = 0): void {
    this.advance(at);
    this.#stopAll(at, exitCode);
  }

  #stopAll(at: number, exitCode: number): void {
    this.#stopped = true;
    for (const c of this.#all()) {
      c.restartAt = undefined;
      c.waiting = undefined;
      if (c.current === undefined) continue;
      this.#runHook(c, 'preStop', at);
      this.#events.push(killingEvent(containerFieldPath(c.name, c.init, c.ephemeral), c.name));
      this.#exit(c, at, exitCode);
    }
  }

  /**
   * What a container printed (the kubelet's log of it): its current or last instance, or the one
   * before (`previous`); undefined when there is none or its program is not followed.
   */
  output(container: string, previous: boolean, now: number): ContainerOutput | undefined {
    const c = this.#all().find((x) => x.name === container);
    if (c === undefined) return undefined;
    const inst = previous ? c.previousInstance : (c.current ?? c.exitedInstance);
    // A script's output is known, a server's (nginx's access log...) mostly not.
    if (inst === undefined || !inst.run.outputKnown || inst.served === undefined) return undefined;
    const finished = inst === c.current ? undefined : previous ? c.last?.finishedAt : c.exited?.finishedAt;
    inst.run.follow?.((finished ?? now) - inst.startedAt);
    // A server's log: what it printed at its start, then what it logged as it served.
    const chunks = [...inst.run.output, ...inst.served].map((o) => ({
      at: inst.startedAt + o.at,
      text: o.text,
    }));
    return {
      startedAt: inst.startedAt,
      ...(finished !== undefined ? { finishedAt: finished } : {}),
      chunks: inst.served.length === 0 ? chunks : chunks.sort((a, b) => a.at - b.at),
    };
  }

  /**
   * Whether a running container's output follows what its API volumes hold over time (so the
   * node should keep them in step with the API, as the kubelet's periodic sync does).
   */
  followsVolumes(): boolean {
    return this.#files.hasApiVolumes() && this.#all().some((c) => c.current?.run.follow !== undefined);
  }

  /**
   * The pod as the kubelet's informer has it now (labels, annotations, mutable spec fields): the
   * kubelet builds a container it (re)starts from the current pod. Holding the informer's copy,
   * not the one the pod started with, also lets the older copy go.
   */
  observe(pod: JsonObject): void {
    this.#pod = pod;
  }

  /** The kubelet's sync of the API volumes with `pod` and `sources` as they are at `at`. */
  refreshVolumes(pod: JsonObject, sources: VolumeSources, at: number): void {
    for (const c of this.#all()) c.current?.run.follow?.(at - c.current.startedAt);
    this.#files.refresh(pod, sources, at);
  }

  /**
   * Starts the ephemeral containers added to the pod since (pods/ephemeralcontainers, `kubectl
   * debug`), as the kubelet does at its next sync of a running pod. Returns whether one started.
   */
  startEphemeral(pod: JsonObject, at: number): boolean {
    if (this.#stopped || this.terminal()) return false;
    let started = false;
    for (const spec of objsAt(objAt(pod, 'spec'), 'ephemeralContainers')) {
      const name = strAt(spec, 'name') ?? '';
      if (this.#ephemeral.some((c) => c.name === name)) continue;
      this.#pod = pod;
      const c = this.#make(spec, false, true);
      this.#ephemeral.push(c);
      this.#start(c, at);
      started = true;
    }
    return started;
  }

  /**
   * The kubelet's retry, at a sync, of containers it could not create for their configuration
   * (CreateContainerConfigError): with the pod as it is now, a subPathExpr whose variables came
   * from labels or annotations that have since been set may now expand, and the container starts.
   */
  retryConfigErrors(pod: JsonObject, at: number): void {
    const failed = this.#all().filter((c) => c.configError !== undefined);
    if (failed.length === 0) return;
    this.#pod = pod;
    for (const c of failed) {
      const before = c.configError;
      const recorded = this.#events.length;
      c.configError = undefined;
      this.#start(c, at);
      // The same failure again is not news (the kubelet's would only bump the event's count).
      if (c.configError === before) this.#events.length = recorded;
    }
  }

  /** The events recorded since the last call (the caller writes them), oldest first. */
  takeEvents(): KubeletEvent[] {
    const out = this.#events;
    this.#events = [];
    return out;
  }

  /** When the status may next change (undefined: not by itself). */
  nextEventAt(): number | undefined {
    return this.#nextInternal(true);
  }

  /** The pod's phase by the kubelet's rules (getPhase). */
  phase(): 'Pending' | 'Running' | 'Succeeded' | 'Failed' {
    if (this.#initFailed || this.#deadlineExceeded) return 'Failed';
    if (this.#stopped) {
      const stopped = [...this.#init, ...this.#app].filter((c) => c.exited !== undefined);
      return stopped.every((c) => c.exited?.exitCode === 0) ? 'Succeeded' : 'Failed';
    }
    if (!this.#appStarted) return 'Pending';
    let running = 0;
    let waiting = 0;
    let stopped = 0;
    let succeeded = 0;
    for (const c of this.#app) {
      if (c.current !== undefined) running++;
      else if (c.exited !== undefined) {
        stopped++;
        if (c.exited.exitCode === 0) succeeded++;
      } else waiting++;
    }
    if (waiting > 0) return 'Pending';
    if (running > 0) return 'Running';
    if (stopped === 0) return 'Pending';
    // Containers waiting for their restart count as stopped, as the kubelet counts them.
    if (this.#policy === 'Always') return 'Running';
    if (stopped === succeeded) return 'Succeeded';
    if (this.#policy === 'Never') return 'Failed';
    return 'Running';
  }

  /** Whether the pod has reached Succeeded or Failed (its containers run no more). */
  terminal(): boolean {
    const p = this.phase();
    return p === 'Succeeded' || p === 'Failed';
  }

  #terminatedJson(t: Terminated): JsonObject {
    const out: JsonObject = {
      exitCode: t.exitCode,
      reason: t.reason,
      startedAt: rfc3339(t.startedAt),
      finishedAt: rfc3339(t.finishedAt),
      containerID: t.containerID,
    };
    if (t.message !== '') out['message'] = t.message;
    return out;
  }

  #containerStatus(c: Container, initWaiting: boolean, now: number): JsonObject {
    const image = strAt(c.spec, 'image') ?? '';
    const base: JsonObject = {
      name: c.name,
      image: normalizeImage(image),
      imageID: '',
      restartCount: c.restarts,
    };
    const lastState = c.last !== undefined ? { terminated: this.#terminatedJson(c.last) } : {};
    const inst = c.current;
    if (inst !== undefined) {
      return {
        ...base,
        imageID: imageID(image),
        containerID: inst.id,
        ready: inst.ready,
        started: inst.started,
        state: { running: { startedAt: rfc3339(inst.startedAt) } },
        lastState,
      };
    }
    if (c.exited !== undefined && c.waiting !== undefined) {
      // Waiting for a restart: the exited instance is the last state.
      return {
        ...base,
        imageID: imageID(image),
        containerID: c.exited.containerID,
        ready: false,
        started: false,
        state: { waiting: { ...c.waiting } },
        lastState: { terminated: this.#terminatedJson(c.exited) },
      };
    }
    if (c.exited !== undefined) {
      return {
        ...base,
        imageID: imageID(image),
        containerID: c.exited.containerID,
        ready: c.init && c.done,
        started: false,
        state: { terminated: this.#terminatedJson(c.exited) },
        lastState,
      };
    }
    if (c.configError !== undefined) {
      const waiting = { reason: 'CreateContainerConfigError', message: c.configError };
      return { ...base, ready: false, started: false, state: { waiting }, lastState };
    }
    if (c.pullFailedAt !== undefined) {
      const ref = normalizeImage(image);
      const waiting =
        now - c.pullFailedAt < pullBackOffAfterMs
          ? {
              reason: 'ErrImagePull',
              message: `rpc error: code = NotFound desc = failed to pull and unpack image "${ref}": failed to resolve reference "${ref}": ${ref}: not found`,
            }
          : { reason: 'ImagePullBackOff', message: `Back-off pulling image "${image}"` };
      return { ...base, ready: false, started: false, state: { waiting }, lastState };
    }
    const reason = initWaiting ? 'PodInitializing' : 'ContainerCreating';
    return { ...base, ready: false, started: false, state: { waiting: { reason } }, lastState };
  }

  /**
   * The pod status the kubelet would write now; `current` (default: the pod the simulation began
   * with) has the conditions whose transition times carry over.
   */
  status(rt: PodRuntime, now: number, current: JsonObject = this.#pod): JsonObject {
    const old = objsAt(objAt(current, 'status'), 'conditions');
    const phase = this.phase();
    const status = baseStatus(rt, phase);
    const unready = this.#app.filter((c) => c.current?.ready !== true).map((c) => c.name);
    const incomplete = this.#init.filter((c) => !c.done).map((c) => c.name);
    const terminal = phase === 'Succeeded' || phase === 'Failed';
    const notReady = `containers with unready status: [${unready.join(' ')}]`;
    const initialized =
      incomplete.length === 0
        ? condition(old, 'Initialized', 'True', now, terminal ? 'PodCompleted' : undefined)
        : condition(
            old,
            'Initialized',
            'False',
            now,
            'ContainersNotInitialized',
            `containers with incomplete status: [${incomplete.join(' ')}]`,
          );
    const ready = (type: string): JsonObject =>
      terminal
        ? condition(old, type, 'False', now, 'PodCompleted')
        : unready.length === 0
          ? condition(old, type, 'True', now)
          : condition(old, type, 'False', now, 'ContainersNotReady', notReady);
    status['conditions'] = [
      initialized,
      ready('Ready'),
      ready('ContainersReady'),
      scheduledCondition(old, now),
    ];
    if (this.#deadlineExceeded) {
      status['reason'] = 'DeadlineExceeded';
      status['message'] = 'Pod was active on the node longer than the specified deadline';
    }
    status['containerStatuses'] = this.#app.map((c) =>
      this.#containerStatus(c, this.#init.length > 0 && !this.#appStarted, now),
    );
    if (this.#init.length > 0)
      status['initContainerStatuses'] = this.#init.map((c) => this.#containerStatus(c, true, now));
    // Ephemeral containers are never ready (they have no probes and serve nothing).
    if (this.#ephemeral.length > 0)
      status['ephemeralContainerStatuses'] = this.#ephemeral.map((c) => ({
        ...this.#containerStatus(c, false, now),
        ready: false,
      }));
    return status;
  }
}
