/**
 * Runs the built-in controllers in-process, talking to this server over its own HTTPS endpoint
 * with the admin credentials (the same path a separate controller-manager process would take).
 * One client (one HTTP/2 session pool) and one informer factory serve them all: the namespace
 * informer is shared by the namespace controller and both namespaced-defaults controllers.
 */
import type { ClientCredentials } from '../../client/credentials.js';
import { SharedInformerFactory } from '../../client/informer-factory.js';
import { RestClient } from '../../client/rest-client.js';
import { NamespaceController } from '../../controllers/namespace/namespace-controller.js';
import {
  defaultServiceAccountController,
  rootCaPublisher,
} from '../../controllers/namespaced-defaults/defaults.js';
import type { Logger } from '../../util/log.js';

export interface RunningControllers {
  stop(): Promise<void>;
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export function startControllers(credentials: ClientCredentials, log: Logger): RunningControllers {
  const client = new RestClient(credentials);
  const abort = new AbortController();
  const informers = new SharedInformerFactory({
    client,
    onError: (err, path) => log.v(2, `informer ${path}: ${message(err)}`),
  });
  const onError = (name: string) => (err: unknown) => log.v(2, `${name}: ${message(err)}`);
  const running = [
    new NamespaceController({ client, informers, onError: onError('namespace-controller') }).run(
      abort.signal,
    ),
    defaultServiceAccountController({
      client,
      informers,
      onError: onError('serviceaccount-controller'),
    }).run(abort.signal),
    rootCaPublisher({
      client,
      informers,
      caPem: credentials.ca,
      onError: onError('root-ca-cert-publisher'),
    }).run(abort.signal),
  ];
  informers.start(abort.signal);
  return {
    async stop() {
      abort.abort();
      await Promise.allSettled(running);
      await informers.stopped();
      client.close();
    },
  };
}
