/**
 * API Priority and Fairness wiring: the flow controller when APF is on (the
 * APIPriorityAndFairness gate and --enable-priority-and-fairness, and flowcontrol v1beta3 served),
 * and its configuration source: informers on FlowSchemas and PriorityLevelConfigurations over the
 * in-process client (as system:apiserver, exempt), with status conditions written by server-side
 * apply of the status subresource, as upstream's config controller does.
 */
import { FlowController, configConsumerFieldManager } from '../../apiserver/flowcontrol/controller.js';
import type { FlowSchemaCondition, FlowcontrolConfigSource } from '../../apiserver/flowcontrol/types.js';
import { SharedInformerFactory } from '../../client/informer-factory.js';
import type { RestClient } from '../../client/rest-client.js';
import type { FeatureGates } from '../../machinery/features.js';
import type { JsonObject } from '../../util/json.js';
import type { Logger } from '../../util/log.js';
import type { RuntimeConfig } from './runtime-config.js';

const group = 'flowcontrol.apiserver.k8s.io';
const base = `/apis/${group}/v1beta3`;
/** Upstream: --request-timeout (60 s) / 4. */
const requestWaitLimitSeconds = 60 / 4;

export function flowControlFor(o: {
  features: FeatureGates;
  runtimeConfig: RuntimeConfig;
  enabled: boolean | undefined;
  /** --max-requests-inflight + --max-mutating-requests-inflight. */
  serverConcurrencyLimit: number;
  log: Logger;
}): FlowController | undefined {
  if (!o.features.enabled('APIPriorityAndFairness') || o.enabled === false) return undefined;
  if (o.serverConcurrencyLimit <= 0) {
    throw new Error(
      `invalid configuration: MaxRequestsInFlight=0 and MaxMutatingRequestsInFlight=0; they must add up to something positive`,
    );
  }
  if (!o.runtimeConfig.enabled(group, 'v1beta3')) {
    o.log.info(
      `API Priority and Fairness needs ${group}/v1beta3 served: max-in-flight limits requests instead`,
    );
    return undefined;
  }
  return new FlowController({
    serverConcurrencyLimit: o.serverConcurrencyLimit,
    requestWaitLimit: requestWaitLimitSeconds,
    log: o.log,
  });
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export function informerSource(client: RestClient, log: Logger): FlowcontrolConfigSource {
  return {
    async run(onChange, signal) {
      const informers = new SharedInformerFactory({
        client,
        useWatchList: 'never',
        onError: (err, path) => log.v(2, `informer ${path}: ${message(err)}`),
      });
      const levels = informers.informerFor(`${base}/prioritylevelconfigurations`);
      const schemas = informers.informerFor(`${base}/flowschemas`);
      let synced = false;
      let pending = false;
      // One digest per turn of the event loop however many events arrived (upstream's work queue).
      const changed = (): void => {
        if (!synced || pending) return;
        pending = true;
        setImmediate(() => {
          pending = false;
          if (!signal.aborted) onChange(levels.store.list(), schemas.store.list());
        });
      };
      const handler = { onAdd: changed, onUpdate: changed, onDelete: changed };
      levels.addEventHandler(handler);
      schemas.addEventHandler(handler);
      informers.start(signal);
      if (await informers.waitForSync()) {
        synced = true;
        changed();
      }
      await new Promise<void>((resolve) => {
        if (signal.aborted) resolve();
        else signal.addEventListener('abort', () => resolve(), { once: true });
      });
      await informers.stopped();
    },
    async writeFlowSchemaCondition(name: string, condition: FlowSchemaCondition) {
      const body: JsonObject = {
        apiVersion: `${group}/v1beta3`,
        kind: 'FlowSchema',
        metadata: { name },
        status: { conditions: [{ ...condition }] },
      };
      await client.request(
        'PATCH',
        `${base}/flowschemas/${encodeURIComponent(name)}/status?fieldManager=${configConsumerFieldManager}&force=true`,
        { body, contentType: 'application/apply-patch+yaml' },
      );
    },
  };
}

/** Runs the controller on the stores' configuration until stopped. */
export function followFlowcontrolConfig(
  fc: FlowController,
  client: RestClient,
  log: Logger,
): { stop(): Promise<void> } {
  const abort = new AbortController();
  const running = fc.run(informerSource(client, log), abort.signal).catch((err: unknown) => {
    log.error(`API Priority and Fairness config controller: ${message(err)}`);
  });
  return {
    async stop() {
      abort.abort();
      await running;
    },
  };
}
