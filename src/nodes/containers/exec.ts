/**
 * A command run in a running container of a simulated pod (`kubectl exec`, the kubelet's
 * ExecInContainer): a command the simulated shell knows (shell-run.ts: `echo`, `cat`, `ls`,
 * `test`, `sh -c '…'`, …) runs against the container's files as they are now, its environment and
 * its identity, and its output and exit status are what the program would give. A command whose
 * effect depends on what the simulator does not know (a binary of the image, a file that may come
 * with it) is refused with the reason, never answered with made-up output.
 */
import type { JsonObject } from '../../util/json.js';
import { objAt, strAt } from '../json.js';
import { containerEnv, podSysctls, scriptFs } from './container-run.js';
import type { EnvContext, FileEvent } from './container-run.js';
import { identityOf, ipToolOption } from './identity.js';
import type { PodFiles } from './pod-files.js';
import { execProgram, imageName } from './program.js';
import { netToolsOf } from './net-tools.js';
import type { ShellNet } from './shell-net.js';
import { agnhostResolvReader } from './resolv-conf.js';
import { ShellUnsupported } from './shell-parse.js';
import { runShell } from './shell-run.js';

/** Output of the command: on its stdout (1) or stderr (2), ms after it started. */
export interface ExecChunk {
  readonly at: number;
  readonly fd: 1 | 2;
  readonly text: string;
}

export type ExecOutcome =
  | {
      readonly kind: 'ran';
      /** The exit status; undefined for a command that does not end (it runs until stopped). */
      readonly code: number | undefined;
      /** When it ends, ms after its start. */
      readonly elapsedMs: number;
      readonly output: readonly ExecChunk[];
      /** Its changes to files, in time order (`store` undefined: the container's own files). */
      readonly events: readonly FileEvent[];
    }
  | { readonly kind: 'unknowable'; readonly reason: string };

export interface ExecOptions {
  readonly argv: readonly string[];
  /** Everything the client sent on stdin (the command runs once stdin is closed). */
  readonly stdin: string;
  readonly pod: JsonObject;
  readonly container: JsonObject;
  readonly files: PodFiles;
  /** The container's own files now (they are changed in place by what the command writes). */
  readonly own: Map<string, string>;
  readonly envContext?: EnvContext;
  /** The container's own program is not followed: its own files are known only from `own`. */
  readonly programUnknown?: boolean;
  /** Own files known to be gone (earlier commands removed them). */
  readonly removed?: ReadonlySet<string>;
  /** How long a command may run in virtual time before it counts as never ending. */
  readonly horizonMs?: number;
  /** The pod's network, for the image's network tools (`nc`, `curl`, `wget`). */
  readonly net?: ShellNet;
}

export function execInContainer(o: ExecOptions): ExecOutcome {
  const program = execProgram(o.container, o.argv);
  if (program.kind === 'resolv-reader') {
    const conf = readable(() =>
      scriptFs(o.files, o.container, o.own, undefined, fsOptions(o)).read('/etc/resolv.conf'),
    );
    if (typeof conf !== 'string')
      return { kind: 'unknowable', reason: conf?.reason ?? '/etc/resolv.conf does not exist' };
    const r = agnhostResolvReader(conf, program.field);
    const output: ExecChunk[] = [];
    if (r.stdout !== '') output.push({ at: 0, fd: 1, text: r.stdout });
    if (r.stderr !== '') output.push({ at: 0, fd: 2, text: r.stderr });
    return { kind: 'ran', code: r.code, elapsedMs: 0, output, events: [] };
  }
  if (program.kind !== 'script') {
    const reason = program.kind === 'unknown' ? program.reason : `${program.kind} program`;
    return { kind: 'unknowable', reason };
  }
  const events: FileEvent[] = [];
  const output: ExecChunk[] = [];
  const identity = identityOf(o.pod, o.container);
  try {
    const r = runShell(program.list, {
      fs: scriptFs(o.files, o.container, o.own, events, fsOptions(o)),
      env: containerEnv(o.pod, o.container, o.envContext),
      openEnv: true,
      args: program.args,
      ...(program.xtrace === true ? { xtrace: true } : {}),
      stdin: o.stdin,
      hostname: strAt(objAt(o.pod, 'spec'), 'hostname') ?? strAt(objAt(o.pod, 'metadata'), 'name') ?? '',
      ...(identity.explicit ? { identity } : {}),
      sysctls: podSysctls(o.pod),
      ...ipToolOption(imageName(strAt(o.container, 'image') ?? ''), o.pod, o.container),
      horizonMs: o.horizonMs ?? 600_000,
      onOutput: (at, fd, text) => output.push({ at, fd, text }),
      ...(o.net !== undefined
        ? { net: o.net, netTools: netToolsOf(imageName(strAt(o.container, 'image') ?? '')) }
        : {}),
    });
    return { kind: 'ran', code: r.code, elapsedMs: r.elapsedMs, output, events };
  } catch (err) {
    if (err instanceof ShellUnsupported) return { kind: 'unknowable', reason: err.message };
    throw err;
  }
}

/** A read's content, or why it cannot be known (undefined: the file does not exist). */
function readable(read: () => string | undefined): string | { readonly reason: string } | undefined {
  try {
    return read();
  } catch (err) {
    if (err instanceof ShellUnsupported) return { reason: err.message };
    throw err;
  }
}

function fsOptions(o: ExecOptions): { programUnknown: boolean; removed?: ReadonlySet<string> } {
  return {
    programUnknown: o.programUnknown === true,
    ...(o.removed !== undefined ? { removed: o.removed } : {}),
  };
}
