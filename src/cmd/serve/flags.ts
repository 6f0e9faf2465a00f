/** `nanokube serve` flags (names kept stable; more will come). */
import { FeatureGates } from '../../machinery/features.js';
import type { ServerOptions } from './start.js';

export class FlagError extends Error {
  override readonly name = 'FlagError';
}

export const serveUsage = `Usage: nanokube serve [flags]

Flags:
  --data-dir DIR              where state, certificates and the kubeconfig live (default ./.nanokube)
  --bind-address ADDR         address to listen on (default 127.0.0.1)
  --secure-port N             HTTPS port; 0 picks a free one and prints it (default 6443)
  --write-kubeconfig FILE     kubeconfig to write (default DIR/kubeconfig)
  --storage sqlite|memory     storage backend (default sqlite)
  --sqlite-synchronous MODE   SQLite synchronous setting: FULL (default, durable), NORMAL, OFF
  --feature-gates k=v,...     Kubernetes v1.27 feature gates
  --anonymous-auth[=BOOL]     requests without credentials are system:anonymous (default true);
                              false: they get 401
  -v N                        log verbosity (default 0)
`;

export function parseServeFlags(args: readonly string[]): ServerOptions {
  let dataDir = './.nanokube';
  let bindAddress = '127.0.0.1';
  let securePort = 6443;
  let kubeconfigPath: string | undefined;
  let storage: 'sqlite' | 'memory' = 'sqlite';
  let featureGates: Record<string, boolean> = {};
  let verbosity = 0;
  let synchronous: 'FULL' | 'NORMAL' | 'OFF' | undefined;
  let anonymousAuth = true;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const eq = arg.indexOf('=');
    const name = eq > 0 && arg.startsWith('-') ? arg.slice(0, eq) : arg;
    const value = (): string => {
      if (eq > 0 && arg.startsWith('-')) return arg.slice(eq + 1);
      const v = args[++i];
      if (v === undefined) throw new FlagError(`flag needs an argument: ${name}`);
      return v;
    };
    switch (name.replace(/^--?/, '')) {
      case 'data-dir':
        dataDir = value();
        break;
      case 'bind-address':
        bindAddress = value();
        break;
      case 'secure-port': {
        const v = value();
        securePort = Number(v);
        if (!Number.isInteger(securePort) || securePort < 0 || securePort > 65535) {
          throw new FlagError(`invalid argument "${v}" for "--secure-port" flag`);
        }
        break;
      }
      case 'write-kubeconfig':
        kubeconfigPath = value();
        break;
      case 'storage': {
        const v = value();
        if (v !== 'sqlite' && v !== 'memory')
          throw new FlagError(`invalid argument "${v}" for "--storage" flag: must be sqlite or memory`);
        storage = v;
        break;
      }
      case 'sqlite-synchronous': {
        const v = value().toUpperCase();
        if (v !== 'FULL' && v !== 'NORMAL' && v !== 'OFF') {
          throw new FlagError(
            `invalid argument "${v}" for "--sqlite-synchronous" flag: must be FULL, NORMAL or OFF`,
          );
        }
        synchronous = v;
        break;
      }
      case 'feature-gates':
        featureGates = { ...featureGates, ...FeatureGates.parse(value()) };
        break;
      case 'anonymous-auth': {
        // A boolean flag: bare means true; only --anonymous-auth=VALUE takes a value.
        const v = eq > 0 ? arg.slice(eq + 1) : 'true';
        if (v !== 'true' && v !== 'false') {
          throw new FlagError(`invalid argument "${v}" for "--anonymous-auth" flag: must be true or false`);
        }
        anonymousAuth = v === 'true';
        break;
      }
      case 'v':
        verbosity = Number(value());
        break;
      default:
        throw new FlagError(`unknown flag: ${name}`);
    }
  }
  new FeatureGates(featureGates);
  return {
    dataDir,
    bindAddress,
    securePort,
    storage,
    featureGates,
    verbosity,
    anonymousAuth,
    ...(kubeconfigPath !== undefined ? { kubeconfigPath } : {}),
    ...(synchronous !== undefined ? { synchronous } : {}),
  };
}
