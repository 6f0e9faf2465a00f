#!/usr/bin/env -S node --max-semi-space-size=16 --max-old-space-size=2000
/**
 * The `nanokube` command: `serve`, `controller-manager`, `nodes`, `proxy`, `snapshot`, `storage`.
 *
 * node's flags on the first line (`npm start` repeats them; `bin-node-flags.test.ts` keeps the two
 * equal): young generations of 16 MiB semi-spaces, and every V8 heap of the process (the components
 * thread's too) limited to 2,000 MB. Under 2 GiB, V8 lets a heap's old space grow to at most about
 * twice what its last full collection kept, where a larger limit (V8's default on larger machines:
 * 4,096 MB) allows four times: the pod path's peak RSS is a fifth lower at the same speed. A cluster
 * beyond about 150,000 pods may need a larger limit: run node with its own flags on this file.
 */
import { listenErrorMessage } from './listen-error.js';
import { performance } from 'node:perf_hooks';
import { isMainThread } from 'node:worker_threads';
import { FlagError, parseServeFlags, serveUsage } from './serve/flags.js';
import { startServer } from './serve/start.js';
import { controllerManagerCommand, controllerManagerUsage, nodesCommand, nodesUsage } from './components.js';
import { KubeconfigError } from './kubeconfig-credentials.js';
import { snapshotCommand, snapshotUsage } from './snapshot-command.js';
import { proxyCommand, proxyUsage } from './proxy-command.js';
import { storageCommand, storageUsage } from './storage-command.js';
import { FaultRuleError } from '../apiserver/faults/fault-rule.js';
import { FeatureGateError } from '../machinery/features.js';
import { DatabaseInUseError, DatabaseOpenError, DatabaseTooNewError } from '../storage/kv/sqlite/schema.js';
import { KeyError } from '../auth/serviceaccount/keys.js';
import { StartupError } from './serve/startup-error.js';
import { AuditPolicyError } from '../apiserver/audit/policy.js';
import { EncryptionConfigError } from '../storage/value/config/load.js';
import { MigrationError } from '../storage/kv/migrate.js';

async function serve(args: readonly string[]): Promise<void> {
  const options = parseServeFlags(args);
  const server = await startServer(options);
  const seconds = (performance.now() / 1000).toFixed(3);
  process.stdout.write(
    `nanokube ready in ${seconds}s: serving ${server.url} (storage: ${options.storage}, data dir: ${options.dataDir})\n` +
      `  export KUBECONFIG=${server.kubeconfigPath}\n  kubectl get namespaces\n`,
  );
  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`nanokube: ${signal} received, shutting down\n`);
    void server.close().then(
      () => process.exit(0),
      (err: unknown) => {
        process.stderr.write(`nanokube: shutdown failed: ${String(err)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

async function main(argv: readonly string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command === 'serve') return serve(rest);
  if (command === 'controller-manager') return controllerManagerCommand(rest);
  if (command === 'nodes') return nodesCommand(rest);
  if (command === 'snapshot') return snapshotCommand(rest);
  if (command === 'proxy') return proxyCommand(rest);
  if (command === 'storage') return storageCommand(rest);
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(
      'nanokube: a Kubernetes v1.27 control plane\n\nCommands:\n' +
        '  serve                the API server, with controllers and simulated nodes in-process\n' +
        '  controller-manager   the controllers, against any API server\n' +
        '  nodes                simulated nodes and the scheduler, against any API server\n' +
        "  proxy                kube-proxy's iptables mode for one node, against any API server\n" +
        '  snapshot             save a running cluster to a file, or restore it\n' +
        '  storage migrate      copy a stopped cluster from a data dir into etcd, or back\n\n' +
        `${serveUsage}\n${controllerManagerUsage}\n${nodesUsage}\n${proxyUsage}\n${snapshotUsage}\n${storageUsage}`,
    );
    return;
  }
  throw new FlagError(`unknown command "${command}" for "nanokube"`);
}

// The bundle is also the entry of serve's components thread (components-thread.ts), where it must
// not run the command again.
if (isMainThread) void run();

/** --v=N (or --v N, -v N) of at least 4 on the command line, or NANOKUBE_DEBUG set. */
function wantsStack(argv: readonly string[]): boolean {
  if ((process.env['NANOKUBE_DEBUG'] ?? '') !== '') return true;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const m = /^--?v(?:=(\d+))?$/.exec(a);
    if (m === null) continue;
    const level = Number(m[1] ?? argv[i + 1]);
    if (Number.isInteger(level) && level >= 4) return true;
  }
  return false;
}

function run(): Promise<void> {
  return main(process.argv.slice(2)).catch((err: unknown) => {
    if (
      err instanceof DatabaseInUseError ||
      err instanceof DatabaseTooNewError ||
      err instanceof DatabaseOpenError ||
      err instanceof MigrationError ||
      err instanceof StartupError ||
      err instanceof KeyError ||
      err instanceof AuditPolicyError ||
      err instanceof EncryptionConfigError
    ) {
      process.stderr.write(`Error: ${err.message}\n`);
      process.exit(1);
    }
    if (
      err instanceof FlagError ||
      err instanceof FeatureGateError ||
      err instanceof KubeconfigError ||
      err instanceof FaultRuleError
    ) {
      process.stderr.write(`Error: ${err.message}\n`);
      process.exit(2);
    }
    const listen = listenErrorMessage(err);
    if (listen !== undefined) {
      process.stderr.write(`Error: ${listen}\n`);
      process.exit(1);
    }
    // Anything else is one line too, as upstream's commands print errors; the stack trace (for a
    // bug report) with --v=4 or more, or NANOKUBE_DEBUG set.
    const message = err instanceof Error ? err.message : String(err);
    const stack = err instanceof Error && wantsStack(process.argv) ? err.stack : undefined;
    process.stderr.write(stack !== undefined ? `nanokube: ${stack}\n` : `Error: ${message}\n`);
    process.exit(1);
  });
}
