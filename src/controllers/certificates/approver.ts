/**
 * The CSR approving controller (kube-controller-manager v1.27's csrapproving): a
 * `kubernetes.io/kube-apiserver-client-kubelet` request that is a valid node client certificate
 * request is approved when its requester may create `certificatesigningrequests/nodeclient`
 * (bootstrap) or, for a node renewing its own (`system:node:<name>` asking for that name),
 * `certificatesigningrequests/selfnodeclient` — checked with a SubjectAccessReview.
 */
import type { SharedInformerFactory } from '../../client/informer-factory.js';
import type { RestClient } from '../../client/rest-client.js';
import type { SharedInformer } from '../../client/shared-informer.js';
import type { WorkQueue } from '../../client/workqueue.js';
import { realClock } from '../../util/clock.js';
import type { Clock } from '../../util/clock.js';
import { isJsonObject } from '../../util/json.js';
import type { JsonObject } from '../../util/json.js';
import { arr, name, obj, str } from '../util/objects.js';
import { controllerQueue } from '../util/workers.js';

export interface CsrApprovingControllerOptions {
  readonly client: Pick<RestClient, 'request'>;
  readonly informers: SharedInformerFactory;
  readonly clock?: Clock;
  readonly onError?: (err: unknown) => void;
}

const kubeletClientSigner = 'kubernetes.io/kube-apiserver-client-kubelet';

export class CsrApprovingController {
  readonly #o: CsrApprovingControllerOptions;
  readonly #clock: Clock;
  readonly #queue: WorkQueue;
  readonly #csrs: SharedInformer;

  constructor(o: CsrApprovingControllerOptions) {
    this.#o = o;
    this.#clock = o.clock ?? realClock;
    this.#queue = controllerQueue('csrapproving', o.onError, this.#clock);
    this.#csrs = o.informers.informerFor('/apis/certificates.k8s.io/v1/certificatesigningrequests');
    this.#csrs.addEventHandler({
      onAdd: (c) => this.#queue.add(name(c)),
      onUpdate: (_a, c) => this.#queue.add(name(c)),
    });
  }

  async run(signal: AbortSignal): Promise<void> {
    await Promise.all(
      Array.from({ length: 5 }, () => this.#queue.run((key) => this.#sync(key, signal), signal)),
    );
  }

  async #sync(key: string, signal: AbortSignal): Promise<undefined> {
    const csr = this.#csrs.store.get(key);
    if (csr === undefined) return undefined;
    const spec = obj(csr['spec']);
    if (str(spec['signerName']) !== kubeletClientSigner) return undefined;
    const decided = arr(obj(csr['status'])['conditions']).some(
      (c) => isJsonObject(c) && (c['type'] === 'Approved' || c['type'] === 'Denied'),
    );
    if (decided || str(obj(csr['status'])['certificate']) !== '') return undefined;
    const cn = commonName(str(spec['request']));
    if (cn === undefined || !cn.startsWith('system:node:')) return undefined;
    const self = str(spec['username']) === cn;
    const allowed = await this.#mayCreate(spec, self ? 'selfnodeclient' : 'nodeclient', signal);
    if (!allowed) return undefined;
    const now = new Date(this.#clock.now()).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const message = self
      ? 'Auto approving self kubelet client certificate after SubjectAccessReview.'
      : 'Auto approving kubelet client certificate after SubjectAccessReview.';
    const status = obj(csr['status']);
    const conditions = [
      ...arr(status['conditions']),
      {
        type: 'Approved',
        status: 'True',
        reason: 'AutoApproved',
        message,
        lastUpdateTime: now,
        lastTransitionTime: now,
      },
    ];
    await this.#o.client.request(
      'PUT',
      `/apis/certificates.k8s.io/v1/certificatesigningrequests/${encodeURIComponent(name(csr))}/approval`,
      { body: { ...csr, status: { ...status, conditions } }, signal },
    );
    return undefined;
  }

  async #mayCreate(spec: JsonObject, subresource: string, signal: AbortSignal): Promise<boolean> {
    const review = await this.#o.client.request(
      'POST',
      '/apis/authorization.k8s.io/v1/subjectaccessreviews',
      {
        body: {
          apiVersion: 'authorization.k8s.io/v1',
          kind: 'SubjectAccessReview',
          spec: {
            user: str(spec['username']),
            uid: str(spec['uid']),
            groups: arr(spec['groups']),
            extra: obj(spec['extra']),
            resourceAttributes: {
              group: 'certificates.k8s.io',
              resource: 'certificatesigningrequests',
              verb: 'create',
              subresource,
            },
          },
        },
        signal,
      },
    );
    return obj(review['status'])['allowed'] === true;
  }
}

/** The subject CN of a base64 PEM CSR, without parsing it fully (the signer verifies it). */
function commonName(requestB64: string): string | undefined {
  const pem = Buffer.from(requestB64, 'base64').toString('utf8');
  const m = /-----BEGIN CERTIFICATE REQUEST-----([\s\S]*?)-----END CERTIFICATE REQUEST-----/.exec(pem);
  if (m === null) return undefined;
  const der = Buffer.from(m[1]!.replace(/\s+/g, ''), 'base64');
  // The CN attribute: OID 2.5.4.3 (06 03 55 04 03) followed by a string.
  const at = der.indexOf(Buffer.from([0x06, 0x03, 0x55, 0x04, 0x03]));
  if (at < 0) return undefined;
  const len = der[at + 6];
  if (len === undefined || len >= 0x80) return undefined;
  return der.subarray(at + 7, at + 7 + len).toString('utf8');
}
