/**
 * Runs the built-in controllers in-process, talking to this server over its own HTTPS endpoint
 * with the admin credentials (the same path a separate controller-manager process would take).
 */
import type { ClientCredentials } from '../../client/rest-client.js';
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

export function startControllers(credentials: ClientCredentials, log: Logger): RunningControllers {
  const client = new RestClient(credentials);
  const abort = new AbortController();
  const onError = (name: string) => (err: unknown) =>
    log.v(2, `${name}: ${err instanceof Error ? err.message : String(err)}`);
  const running = [
    new NamespaceController({ client, onError: onError('namespace-controller') }).run(abort.signal),
    defaultServiceAccountController(client, onError('serviceaccount-controller')).run(abort.signal),
    rootCaPublisher(client, credentials.ca, onError('root-ca-cert-publisher')).run(abort.signal),
  ];
  return {
    async stop() {
      abort.abort();
      await Promise.allSettled(running);
      client.close();
    },
  };
}
