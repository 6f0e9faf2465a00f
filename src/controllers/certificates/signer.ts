/**
 * The CSR signing controller (kube-controller-manager v1.27's csrsigning): approved
 * CertificateSigningRequests for the built-in signers are issued by the cluster CA —
 * `kubernetes.io/kube-apiserver-client` (any client), `kubernetes.io/kube-apiserver-client-kubelet`
 * (node client certificates) and `kubernetes.io/kubelet-serving` (node serving certificates) —
 * after upstream's per-signer checks; a request that fails them gets the `Failed` condition with
 * reason `SignerValidationFailure`. Certificates are backdated 5 minutes and last
 * `spec.expirationSeconds` (at least 10 minutes) or the signing duration (default one year), never
 * past the CA's own expiry.
 */
import { createPrivateKey, webcrypto } from 'node:crypto';
import type * as X509Lib from '@peculiar/x509';
import type { SharedInformerFactory } from '../../client/informer-factory.js';
import type { RestClient } from '../../client/rest-client.js';
import type { SharedInformer } from '../../client/shared-informer.js';
import type { WorkQueue } from '../../client/workqueue.js';
import { realClock } from '../../util/clock.js';
import type { Clock } from '../../util/clock.js';
import { isJsonObject } from '../../util/json.js';
import type { JsonObject } from '../../util/json.js';
import { arr, errorMessage, name, obj, str } from '../util/objects.js';
import { controllerQueue } from '../util/workers.js';

export interface CsrSigningControllerOptions {
  readonly client: Pick<RestClient, 'request'>;
  readonly informers: SharedInformerFactory;
  /** The cluster CA certificate and its private key (PEM). */
  readonly caCertPem: string;
  readonly caKeyPem: string;
  /** Upstream --cluster-signing-duration (default 8760h). */
  readonly signingDurationMs?: number;
  readonly clock?: Clock;
  readonly onError?: (err: unknown) => void;
}

const backdateMs = 5 * 60_000;

interface CaMaterial {
  readonly cert: X509Lib.X509Certificate;
  readonly key: webcrypto.CryptoKey;
  readonly alg: webcrypto.EcKeyImportParams | webcrypto.RsaHashedImportParams;
}
const minDurationMs = 600_000;

type Lib = typeof X509Lib;
let lib: Promise<Lib> | undefined;

async function x509(): Promise<Lib> {
  lib ??= (async () => {
    await import('reflect-metadata');
    const m = await import('@peculiar/x509');
    m.cryptoProvider.set(webcrypto as Parameters<typeof m.cryptoProvider.set>[1]);
    return m;
  })();
  return lib;
}

/** Upstream's per-signer rules (pkg/apis/certificates/v1 helpers, csrsigning's isKubelet* checks). */
export const signerRules: Readonly<
  Record<
    string,
    { readonly allowed: readonly string[]; readonly required?: string; readonly node?: 'client' | 'serving' }
  >
> = {
  'kubernetes.io/kube-apiserver-client': {
    allowed: ['digital signature', 'key encipherment', 'client auth'],
    required: 'client auth',
  },
  'kubernetes.io/kube-apiserver-client-kubelet': {
    allowed: ['digital signature', 'key encipherment', 'client auth'],
    required: 'client auth',
    node: 'client',
  },
  'kubernetes.io/kubelet-serving': {
    allowed: ['digital signature', 'key encipherment', 'server auth'],
    required: 'server auth',
    node: 'serving',
  },
};

function condition(csr: JsonObject, type: string): JsonObject | undefined {
  return arr(obj(csr['status'])['conditions']).find(
    (c): c is JsonObject => isJsonObject(c) && c['type'] === type && c['status'] !== 'False',
  );
}

export class CsrSigningController {
  readonly #o: CsrSigningControllerOptions;
  readonly #clock: Clock;
  readonly #queue: WorkQueue;
  readonly #csrs: SharedInformer;
  #ca: Promise<CaMaterial> | undefined;

  constructor(o: CsrSigningControllerOptions) {
    this.#o = o;
    this.#clock = o.clock ?? realClock;
    this.#queue = controllerQueue('csrsigning', o.onError, this.#clock);
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

  async #caMaterial(): Promise<CaMaterial> {
    this.#ca ??= (async () => {
      const m = await x509();
      const keyObject = createPrivateKey(this.#o.caKeyPem);
      const pkcs8 = keyObject.export({ type: 'pkcs8', format: 'der' });
      const alg: webcrypto.EcKeyImportParams | webcrypto.RsaHashedImportParams =
        keyObject.asymmetricKeyType === 'ec'
          ? { name: 'ECDSA', namedCurve: namedCurve(keyObject.asymmetricKeyDetails?.namedCurve) }
          : { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' };
      const key = await webcrypto.subtle.importKey('pkcs8', pkcs8, alg, false, ['sign']);
      return { cert: new m.X509Certificate(this.#o.caCertPem), key, alg };
    })();
    return this.#ca;
  }

  async #sync(key: string, signal: AbortSignal): Promise<undefined> {
    const csr = this.#csrs.store.get(key);
    if (csr === undefined) return undefined;
    const spec = obj(csr['spec']);
    const signer = str(spec['signerName']);
    const rules = signerRules[signer];
    if (rules === undefined) return undefined;
    if (str(obj(csr['status'])['certificate']) !== '') return undefined;
    if (condition(csr, 'Approved') === undefined) return undefined;
    if (condition(csr, 'Denied') !== undefined || condition(csr, 'Failed') !== undefined) return undefined;
    const m = await x509();
    const usages = arr(spec['usages']).filter((u): u is string => typeof u === 'string');
    let request: X509Lib.Pkcs10CertificateRequest;
    try {
      request = new m.Pkcs10CertificateRequest(Buffer.from(str(spec['request']), 'base64').toString('utf8'));
    } catch (err) {
      // Upstream returns this as an error (retried), not as a condition.
      throw new Error(`unable to parse csr "${name(csr)}": ${errorMessage(err)}`, { cause: err });
    }
    const problem = validate(m, request, signer, usages);
    if (problem !== undefined) return this.#fail(csr, problem, signal);
    const ca = await this.#caMaterial();
    const now = this.#clock.now();
    const requested =
      typeof spec['expirationSeconds'] === 'number' ? spec['expirationSeconds'] * 1000 : undefined;
    const duration = Math.max(requested ?? this.#o.signingDurationMs ?? 365 * 24 * 3600_000, minDurationMs);
    const notAfter = Math.min(now + duration, ca.cert.notAfter.getTime());
    const keyUsages: X509Lib.KeyUsageFlags[] = [];
    if (usages.includes('digital signature')) keyUsages.push(m.KeyUsageFlags.digitalSignature);
    if (usages.includes('key encipherment')) keyUsages.push(m.KeyUsageFlags.keyEncipherment);
    const ext: X509Lib.Extension[] = [
      new m.BasicConstraintsExtension(false, undefined, true),
      new m.ExtendedKeyUsageExtension(
        usages.flatMap((u) =>
          u === 'client auth'
            ? [m.ExtendedKeyUsage.clientAuth]
            : u === 'server auth'
              ? [m.ExtendedKeyUsage.serverAuth]
              : [],
        ),
      ),
      await m.AuthorityKeyIdentifierExtension.create(ca.cert),
    ];
    const first = keyUsages[0];
    if (first !== undefined) {
      // The flags are bits: combining them yields a value of the same enum.
      const flags = keyUsages.reduce((a, b) => (a | b) as X509Lib.KeyUsageFlags, first);
      ext.unshift(new m.KeyUsagesExtension(flags, true));
    }
    const san = request.getExtension('2.5.29.17');
    if (san !== null) ext.push(san);
    const cert = await m.X509CertificateGenerator.create({
      serialNumber: Buffer.from(webcrypto.getRandomValues(new Uint8Array(16)))
        .toString('hex')
        .replace(/^[89a-f]/, '1'),
      subject: request.subject,
      issuer: ca.cert.subject,
      notBefore: new Date(now - backdateMs),
      notAfter: new Date(notAfter),
      signingAlgorithm: ca.alg.name === 'ECDSA' ? { name: 'ECDSA', hash: 'SHA-256' } : ca.alg,
      publicKey: request.publicKey,
      signingKey: ca.key,
      extensions: ext,
    });
    const status = {
      ...obj(csr['status']),
      certificate: Buffer.from(`${cert.toString('pem')}\n`).toString('base64'),
    };
    await this.#o.client.request(
      'PUT',
      `/apis/certificates.k8s.io/v1/certificatesigningrequests/${encodeURIComponent(name(csr))}/status`,
      {
        body: { ...csr, status },
        signal,
      },
    );
    return undefined;
  }

  async #fail(csr: JsonObject, message: string, signal: AbortSignal): Promise<undefined> {
    const status = obj(csr['status']);
    const now = new Date(this.#clock.now()).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const conditions = [
      ...arr(status['conditions']),
      {
        type: 'Failed',
        status: 'True',
        reason: 'SignerValidationFailure',
        message,
        lastUpdateTime: now,
        lastTransitionTime: now,
      },
    ];
    await this.#o.client.request(
      'PUT',
      `/apis/certificates.k8s.io/v1/certificatesigningrequests/${encodeURIComponent(name(csr))}/status`,
      {
        body: { ...csr, status: { ...status, conditions } },
        signal,
      },
    );
    return undefined;
  }
}

function namedCurve(curve: string | undefined): string {
  if (curve === 'prime256v1' || curve === undefined) return 'P-256';
  if (curve === 'secp384r1') return 'P-384';
  if (curve === 'secp521r1') return 'P-521';
  return curve;
}

/** Upstream's signer checks; undefined when the request may be signed. */
export function validate(
  m: Lib,
  request: X509Lib.Pkcs10CertificateRequest,
  signer: string,
  usages: readonly string[],
): string | undefined {
  const rules = signerRules[signer]!;
  const bad = usages.filter((u) => !rules.allowed.includes(u));
  if (bad.length > 0) return `invalid usage for client certificate: ${bad[0]!}`;
  if (rules.required !== undefined && !usages.includes(rules.required)) {
    return `missing required usage for ${signer}: "${rules.required}"`;
  }
  if (rules.node !== undefined) {
    const cn = request.subjectName.getField('CN')[0] ?? '';
    const orgs = request.subjectName.getField('O');
    if (!cn.startsWith('system:node:')) return `CN does not start with "system:node:"`;
    if (orgs.length !== 1 || orgs[0] !== 'system:nodes') return 'subject organization is not system:nodes';
    const san = request.getExtension('2.5.29.17');
    if (rules.node === 'client' && san !== null)
      return 'DNS, email, IP or URI subjectAltNames are not allowed';
    if (rules.node === 'serving') {
      const names = san === null ? [] : new m.SubjectAlternativeNameExtension(san.rawData).names.items;
      if (names.length === 0) return 'DNS or IP subjectAltName is required';
      if (names.some((n) => n.type !== 'dns' && n.type !== 'ip'))
        return 'email and URI subjectAltNames are not allowed';
    }
  }
  return undefined;
}
