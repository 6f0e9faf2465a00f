/**
 * What a container runs, as far as a simulated node can know it from the pod spec: a shell script
 * or a shell builtin (`sh -c "sleep 10; exit 1"`, `sleep 3600`, `/bin/false`), a known server that
 * runs until stopped and listens on known ports (agnhost `pause`, `netexec`, `test-webserver`,
 * `liveness`, `serve-hostname`, `grpc-health-checking`, `porter`; the pause, nginx and httpd
 * images), or something unknown, for which the node keeps its default behaviour.
 */
import { networkCommands } from './net-tools.js';
import type { JsonObject } from '../../util/json.js';
import { objsAt, strAt, strsAt } from '../json.js';
import { UnknownReference, expandReferences } from './references.js';
import { ShellUnsupported, argvCommand, parseShell } from './shell-parse.js';
import type { List } from './shell-parse.js';
import { logsGeneratorFlags } from './logs-generator.js';
import type { LogsGeneratorFlags } from './logs-generator.js';
import { httpdDocumentRoot } from './image-files.js';
import {
  guestbookServe,
  httpdServe,
  netexecServe,
  netexecUdp,
  porterServe,
  serveHostnameRaw,
  serveHostnameServe,
  testWebserverServe,
} from './http-servers.js';
import type { RawServe, Serve } from './http-servers.js';
import { admissionWebhookServe, crdConversionServe } from './webhook-servers.js';

/** A port a server listens on: HTTP answers per path and time since start; gRPC health. */
export interface Listener {
  readonly protocol: 'http' | 'tcp' | 'grpc';
  /** It speaks HTTP over TLS (porter's SERVE_TLS_PORT_<n>). */
  readonly tls?: boolean;
  /** Where a TLS server reads its certificate and key (PEM files of its container), when known. */
  readonly tlsFiles?: { readonly cert: string; readonly key: string };
  /** What it answers an HTTP request (undefined: the simulator does not know). */
  readonly serve?: Serve;
  /** A plain TCP server's answer to what a client sends, written before it closes. */
  readonly raw?: RawServe;
  /**
   * Whether an HTTP GET of `path` succeeds this long after the container started; `file` tells
   * whether a file of the container exists now (undefined: not known).
   */
  readonly healthy?: (
    path: string,
    sinceStartMs: number,
    file: (path: string) => boolean | undefined,
  ) => boolean;
}

export type Program =
  | {
      readonly kind: 'script';
      readonly list: List;
      readonly args: readonly string[];
      /** `sh -x`: each command is traced on stderr. */
      readonly xtrace?: boolean;
    }
  | {
      readonly kind: 'server';
      readonly name: string;
      readonly listeners: ReadonlyMap<number, Listener>;
      /** Its UDP ports: the datagram it answers a datagram with (undefined: none). */
      readonly udp?: ReadonlyMap<number, RawServe>;
      /** What it prints when it starts, when that is known (agnhost pause: `Paused`). */
      readonly output?: string;
      /**
       * Lines it writes with Go's log package when it starts (each prefixed with the date and
       * time); with them its output is known, and what it logs as it serves is added.
       */
      readonly startLog?: readonly string[];
    }
  | { readonly kind: 'mounttest'; readonly flags: MounttestFlags }
  | { readonly kind: 'logs-generator'; readonly flags: LogsGeneratorFlags }
  /** agnhost `dns-suffix` / `dns-server-list`: reads /etc/resolv.conf (resolv-conf.ts). */
  | { readonly kind: 'resolv-reader'; readonly field: 'search' | 'nameserver' }
  /**
   * The nonewprivs image's `nnp`, a setuid-root binary that prints `Effective uid: N`: root
   * unless the container runs with no_new_privs (allowPrivilegeEscalation: false).
   */
  | { readonly kind: 'nnp' }
  | { readonly kind: 'unknown'; readonly reason: string };

/** agnhost mounttest's flags (its defaults: retry_time 180, break_on_expected_content true). */
export interface MounttestFlags {
  readonly fsType?: string;
  readonly fileMode?: string;
  readonly filePerm?: string;
  readonly fileOwner?: string;
  /** Files to create with the perm (0644, 0666, 0660, 0777), in the order mounttest writes them. */
  readonly newFiles: readonly { readonly path: string; readonly perm: number }[];
  readonly fileContent?: string;
  readonly fileContentInLoop?: string;
  readonly retryTimeS: number;
  readonly breakOnExpectedContent: boolean;
}

/** Parses mounttest's flags (pflag: `--name=value` or `--name value`); undefined if one is unknown. */
function mounttestFlags(flags: readonly string[]): MounttestFlags | undefined {
  const values = new Map<string, string>();
  const known = new Set([
    'fs_type',
    'file_mode',
    'file_perm',
    'file_owner',
    'new_file_0644',
    'new_file_0666',
    'new_file_0660',
    'new_file_0777',
    'file_content',
    'file_content_in_loop',
    'retry_time',
    'break_on_expected_content',
  ]);
  for (let i = 0; i < flags.length; i++) {
    const m = /^--?([^=]+)(?:=(.*))?$/s.exec(flags[i]!);
    if (m === null || !known.has(m[1]!)) return undefined;
    let value = m[2];
    if (value === undefined) {
      // A bool flag alone is true; every other flag takes the next argument.
      if (m[1] === 'break_on_expected_content') value = 'true';
      else if (flags[i + 1] !== undefined) value = flags[++i]!;
      else return undefined;
    }
    values.set(m[1]!, value);
  }
  const retry = Number(values.get('retry_time') ?? '180');
  const brk = values.get('break_on_expected_content') ?? 'true';
  if (!Number.isInteger(retry) || !['true', 'false', '1', '0', 't', 'f', 'TRUE', 'FALSE'].includes(brk))
    return undefined;
  const opt = (name: string): string | undefined => {
    const v = values.get(name);
    return v === undefined || v === '' ? undefined : v;
  };
  const newFiles: { path: string; perm: number }[] = [];
  for (const perm of [0o644, 0o666, 0o660, 0o777]) {
    const path = opt(`new_file_0${perm.toString(8)}`);
    if (path !== undefined) newFiles.push({ path, perm });
  }
  const pick = <K extends string>(key: K, name: string): { [P in K]?: string } => {
    const v = opt(name);
    return (v === undefined ? {} : { [key]: v }) as { [P in K]?: string };
  };
  return {
    ...pick('fsType', 'fs_type'),
    ...pick('fileMode', 'file_mode'),
    ...pick('filePerm', 'file_perm'),
    ...pick('fileOwner', 'file_owner'),
    ...pick('fileContent', 'file_content'),
    ...pick('fileContentInLoop', 'file_content_in_loop'),
    newFiles,
    retryTimeS: retry,
    breakOnExpectedContent: ['true', '1', 't', 'TRUE'].includes(brk),
  };
}

/** The image's name without registry, tag or digest: `registry.k8s.io/e2e-test-images/agnhost:2.43` → agnhost. */
export function imageName(image: string): string {
  let ref = image;
  const at = ref.indexOf('@');
  if (at >= 0) ref = ref.slice(0, at);
  const last = ref.slice(ref.lastIndexOf('/') + 1);
  const colon = last.indexOf(':');
  return colon >= 0 ? last.slice(0, colon) : last;
}

/** Tags that say the image does not exist (the e2e specs use `webserver:404`, `foo:non-existent`). */
const missingTags = new Set([
  '404',
  'nonexistent',
  'non-existent',
  'does-not-exist',
  'doesnotexist',
  'notfound',
  'not-found',
]);

/**
 * Whether pulling the image fails for a simulated node: a registry host under `invalid.` or the
 * `.invalid` top-level domain (reserved, never resolves), or a tag that says the image does not
 * exist. Every other image pulls.
 */
export function imageMissing(image: string): boolean {
  const slash = image.indexOf('/');
  const first = slash < 0 ? '' : image.slice(0, slash);
  const host =
    first.includes('.') || first.includes(':') || first === 'localhost' ? first.replace(/:\d+$/, '') : '';
  if (host.startsWith('invalid.') || host.endsWith('.invalid')) return true;
  const last = image.slice(image.lastIndexOf('/') + 1).split('@')[0] ?? '';
  const colon = last.indexOf(':');
  return colon >= 0 && missingTags.has(last.slice(colon + 1));
}

function basename(p: string): string {
  return p.slice(p.lastIndexOf('/') + 1);
}

/** Commands of the simulated shell that may be exec'd directly (`command: ["sleep", "3600"]`). */
const builtins = new Set([
  'sleep',
  'true',
  'false',
  'echo',
  'printf',
  'cat',
  'hexdump',
  'grep',
  'seq',
  'touch',
  'rm',
  'ls',
  'test',
  'hostname',
  'id',
  'sysctl',
  'printenv',
  'env',
  'mv',
  'sh',
  'ash',
  'bash',
  'ip',
  // The images' network tools (net-tools.ts, dns-tools.ts): run where the image has them.
  ...networkCommands,
]);

/** An argv run as a script: `sh -c SCRIPT [$0 args...]`, or one builtin command. */
export function argvProgram(argv: readonly string[]): Program {
  const [cmd, ...rest] = argv;
  if (cmd === undefined) return { kind: 'unknown', reason: 'no command' };
  const name = basename(cmd);
  if (!builtins.has(name)) return { kind: 'unknown', reason: `command ${cmd}` };
  try {
    if (name === 'sh' || name === 'ash' || name === 'bash') {
      // `-x` (trace) may come before `-c`; other options change what the script does.
      const xtrace = rest[0] === '-x';
      const after = xtrace ? rest.slice(1) : rest;
      if (after[0] === '-c' && after[1] !== undefined) {
        return {
          kind: 'script',
          list: parseShell(after[1]),
          args: [after[2] ?? cmd, ...after.slice(3)],
          ...(xtrace ? { xtrace } : {}),
        };
      }
    }
    return { kind: 'script', list: argvCommand(argv), args: [name] };
  } catch (err) {
    if (err instanceof ShellUnsupported) return { kind: 'unknown', reason: err.message };
    throw err;
  }
}

function flagValue(args: readonly string[], flag: string, fallback: number): number {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === `--${flag}` && args[i + 1] !== undefined) return Number(args[i + 1]);
    if (a.startsWith(`--${flag}=`)) return Number(a.slice(flag.length + 3));
  }
  return fallback;
}

const always = (): boolean => true;

function server(
  name: string,
  ports: readonly [number, Listener][],
  output?: string,
): Extract<Program, { kind: 'server' }> {
  const listeners = new Map(ports.filter(([p]) => p > 0));
  return output === undefined
    ? { kind: 'server', name, listeners }
    : { kind: 'server', name, listeners, output };
}

/** Whether a bool flag (`--name`, `--name=true`) is set in pflag's syntax. */
function boolFlag(args: readonly string[], flag: string): boolean {
  let on = false;
  for (const a of args) {
    if (a === `--${flag}`) on = true;
    else if (a.startsWith(`--${flag}=`))
      on = ['true', '1', 't', 'TRUE', 'True', 'T'].includes(a.slice(flag.length + 3));
  }
  return on;
}

/** A string flag's value (`--name v`, `--name=v`), or the fallback. */
function stringFlag(args: readonly string[], flag: string, fallback: string): string {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === `--${flag}` && args[i + 1] !== undefined) return args[i + 1]!;
    if (a.startsWith(`--${flag}=`)) return a.slice(flag.length + 3);
  }
  return fallback;
}

/** A server's TLS from its `--tls-cert-file` and `--tls-private-key-file` flags (none: plain HTTP). */
function tlsOf(flags: readonly string[]): Pick<Listener, 'tls' | 'tlsFiles'> {
  const cert = stringFlag(flags, 'tls-cert-file', '');
  if (cert === '') return {};
  const key = stringFlag(flags, 'tls-private-key-file', '');
  return { tls: true, ...(key !== '' ? { tlsFiles: { cert, key } } : {}) };
}

/** agnhost's subcommands that serve until stopped, with their ports (agnhost's flag defaults). */
function agnhost(
  args: readonly string[],
  container: JsonObject,
  argv0 = '/agnhost',
  env: ReadonlyMap<string, string | undefined> = new Map(),
): Program {
  const [sub, ...flags] = args;
  const http: Listener = { protocol: 'http', healthy: always };
  const serving = (serve: Serve): Listener => ({ ...http, serve });
  switch (sub ?? 'pause') {
    case 'pause':
      return server('agnhost pause', [], 'Paused\n');
    case 'netexec': {
      // Its UDP port (--udp-port) answers no TCP or HTTP probe.
      // The HTTP server logs its start at once; the UDP one (on every address) a moment later.
      const httpPort = flagValue(flags, 'http-port', 8080);
      const udpPort = flagValue(flags, 'udp-port', 8081);
      const tls = tlsOf(flags);
      return {
        ...server('agnhost netexec', [[httpPort, { ...serving(netexecServe()), ...tls }]]),
        ...(udpPort > 0 ? { udp: new Map([[udpPort, netexecUdp]]) } : {}),
        startLog: [
          `Started HTTP server on port ${httpPort}`,
          ...(udpPort > 0 ? [`Started UDP server on port  ${udpPort}`] : []),
        ],
      };
    }
    case 'webhook':
    case 'crd-conversion-webhook': {
      // HTTPS only, with the key pair its flags name (tls.LoadX509KeyPair fails fatally without).
      const tls = tlsOf(flags);
      if (tls.tlsFiles === undefined) return { kind: 'unknown', reason: `agnhost ${sub} without a key pair` };
      const serve =
        sub === 'webhook'
          ? admissionWebhookServe(stringFlag(flags, 'sidecar-image', ''))
          : crdConversionServe();
      return server(`agnhost ${sub}`, [[flagValue(flags, 'port', 443), { ...serving(serve), ...tls }]]);
    }
    case 'test-webserver':
      return server('agnhost test-webserver', [
        [flagValue(flags, 'port', 80), serving(testWebserverServe())],
      ]);
    case 'serve-hostname': {
      // --http (the default) or --tcp and/or --udp on --port; both kinds at once exit at start.
      const port = flagValue(flags, 'port', 9376);
      const tcp = boolFlag(flags, 'tcp');
      const udp = boolFlag(flags, 'udp');
      const http = !flags.some((f) => /^--http=(false|0|f|FALSE|False|F)$/.test(f));
      if (http && (tcp || udp))
        return { kind: 'unknown', reason: 'serve-hostname with --http and --tcp or --udp' };
      if (http)
        return server('agnhost serve-hostname', [
          [port, serving(serveHostnameServe(boolFlag(flags, 'close')))],
        ]);
      return {
        ...server('agnhost serve-hostname', tcp ? [[port, { protocol: 'tcp', raw: serveHostnameRaw }]] : []),
        ...(udp ? { udp: new Map([[port, serveHostnameRaw]]) } : {}),
      };
    }
    case 'liveness':
      // /healthz answers 200 for the first 10 s, then 500; the socket stays open.
      return server('agnhost liveness', [
        [8080, { protocol: 'http', healthy: (path, since) => path !== '/healthz' || since <= 10_000 }],
      ]);
    case 'grpc-health-checking':
      return server('agnhost grpc-health-checking', [
        [flagValue(flags, 'port', 5000), { protocol: 'grpc' }],
        [flagValue(flags, 'http-port', 8080), http],
      ]);
    case 'porter': {
      // Serves every SERVE_PORT_<n> (and SERVE_TLS_PORT_<n>) of its environment: the value.
      const json = boolFlag(flags, 'json-response');
      const ports: [number, Listener][] = [];
      const names = new Set([...objsAt(container, 'env').map((e) => strAt(e, 'name') ?? ''), ...env.keys()]);
      for (const name of names) {
        const m = /^SERVE_(TLS_)?PORT_(\d+)$/.exec(name);
        if (m === null) continue;
        const value = env.get(name);
        ports.push([
          Number(m[2]),
          {
            ...http,
            ...(m[1] !== undefined ? { tls: true } : {}),
            ...(value !== undefined ? { serve: porterServe(value, json) } : {}),
          },
        ]);
      }
      return server('agnhost porter', ports);
    }
    case 'guestbook':
      return server('agnhost guestbook', [
        [
          flagValue(flags, 'http-port', 80),
          serving(
            guestbookServe({
              backendPort: flagValue(flags, 'backend-port', 6379),
              replicaOf: stringFlag(flags, 'replicaof', ''),
            }),
          ),
        ],
      ]);
    case 'logs-generator': {
      const parsed = logsGeneratorFlags(flags);
      return parsed === undefined
        ? { kind: 'unknown', reason: 'agnhost logs-generator flags' }
        : { kind: 'logs-generator', flags: parsed };
    }
    case 'dns-suffix':
      return { kind: 'resolv-reader', field: 'search' };
    case 'dns-server-list':
      return { kind: 'resolv-reader', field: 'nameserver' };
    case 'etc-hosts':
      // Prints /etc/hosts (with Println's newline) and exits.
      return { kind: 'script', list: parseShell('cat /etc/hosts; echo'), args: ['sh'] };
    case 'entrypoint-tester':
      // Prints its whole argv (Go's fmt of os.Args) and exits 0.
      return {
        kind: 'script',
        list: argvCommand(['echo', `[${[argv0, ...args].join(' ')}]`]),
        args: ['echo'],
      };
    case 'mounttest': {
      const parsed = mounttestFlags(flags);
      return parsed === undefined
        ? { kind: 'unknown', reason: 'agnhost mounttest flags' }
        : { kind: 'mounttest', flags: parsed };
    }
    default:
      return { kind: 'unknown', reason: `agnhost ${sub ?? ''}` };
  }
}

/** The program of a command exec'd in a container (agnhost's subcommands in its image). */
export function execProgram(container: JsonObject, argv: readonly string[]): Program {
  const bin = basename(argv[0] ?? '');
  if (bin === 'agnhost' || (bin === 'agnhost-2' && imageName(strAt(container, 'image') ?? '') === 'agnhost'))
    return agnhost(argv.slice(1), container, argv[0]);
  return argvProgram(argv);
}

/**
 * The program of a container: its `command` replaces the image's entrypoint and its `args` the
 * image's default arguments, as the container runtime does.
 */
export function containerProgram(
  container: JsonObject,
  env: ReadonlyMap<string, string | undefined> = new Map(),
): Program {
  const image = imageName(strAt(container, 'image') ?? '');
  let command: string[];
  let args: string[];
  try {
    // The kubelet expands `$(VAR)` in the command and args with the container's environment.
    command = strsAt(container, 'command').map((a) => expandReferences(a, env));
    args = strsAt(container, 'args').map((a) => expandReferences(a, env));
  } catch (err) {
    if (err instanceof UnknownReference) return { kind: 'unknown', reason: `$(${err.message}) is not known` };
    throw err;
  }
  const hasCommand = container['command'] !== undefined && command.length > 0;
  const hasArgs = container['args'] !== undefined;
  if (hasCommand) {
    const argv = [...command, ...args];
    // The agnhost image has /agnhost and /agnhost-2, a link to it (its entrypoint specs use both).
    const bin = basename(command[0]!);
    if (bin === 'agnhost' || (bin === 'agnhost-2' && image === 'agnhost'))
      return agnhost(argv.slice(1), container, command[0], env);
    return argvProgram(argv);
  }
  switch (image) {
    case 'agnhost':
      return agnhost(hasArgs ? args : ['pause'], container, '/agnhost', env);
    case 'nonewprivs':
      return hasArgs ? { kind: 'unknown', reason: `${image} with args` } : { kind: 'nnp' };
    case 'nautilus':
    case 'kitten':
      // agnhost images (the update demo's) whose default command is test-webserver.
      return agnhost(hasArgs ? args : ['test-webserver'], container, '/agnhost', env);
    case 'pause':
      return hasArgs ? { kind: 'unknown', reason: 'pause with args' } : server('pause', []);
    case 'nginx':
      return hasArgs
        ? { kind: 'unknown', reason: `${image} with args` }
        : server(image, [[80, { protocol: 'http', healthy: always }]]);
    case 'httpd':
      // Serves its document root: a GET of a file that was removed is a 404.
      return hasArgs
        ? { kind: 'unknown', reason: `${image} with args` }
        : server(image, [
            [
              80,
              {
                protocol: 'http',
                healthy: (path, _since, file) =>
                  file(`${httpdDocumentRoot}${path.endsWith('/') ? `${path}index.html` : path}`) !== false,
                serve: httpdServe(httpdDocumentRoot),
              },
            ],
          ]);
    case 'busybox':
    case 'alpine':
      // No entrypoint: the args are the command.
      return hasArgs && args.length > 0 ? argvProgram(args) : { kind: 'unknown', reason: `${image} shell` };
    default:
      return { kind: 'unknown', reason: `image ${image}` };
  }
}
