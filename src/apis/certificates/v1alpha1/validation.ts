/**
 * ClusterTrustBundle validation as pkg/apis/certificates/validation (release-1.27), on
 * certificates.k8s.io/v1alpha1 JSON. The name rule depends on spec.signerName, so it runs here
 * (the generic store only applies path-segment rules to this kind, as upstream's generic check).
 */
import { FieldPath, fieldErrors } from '../../../machinery/field/errors.js';
import type { FieldError } from '../../../machinery/field/errors.js';
import type { KubeObject } from '../../../machinery/object.js';
import { fieldImmutableErrorMsg } from '../../../machinery/validation/objectmeta.js';
import { obj, str } from '../../core/v1/access.js';
import { decodePem } from '../pem.js';
import { clusterTrustBundleNameFunc, validateSignerName } from '../signername.js';
import { X509Error, parseCertificate } from '../x509.js';

/** Upstream MaxTrustBundleSize (1 MiB). */
export const maxTrustBundleSize = 1024 * 1024;

const omitted = '<value omitted>';

const signerNameOf = (b: KubeObject): string => str(obj(b, 'spec'), 'signerName') ?? '';
const trustBundleOf = (b: KubeObject): string => str(obj(b, 'spec'), 'trustBundle') ?? '';

/**
 * Upstream validateTrustBundle: only CERTIFICATE blocks without headers, each a CA, no duplicates,
 * at least one. Duplicates are reported in order of first appearance (upstream walks a Go map).
 */
export function validateTrustBundle(path: FieldPath, bundle: string): FieldError[] {
  if (Buffer.byteLength(bundle, 'utf8') > maxTrustBundleSize) {
    return [fieldErrors.tooLong(path, '', maxTrustBundleSize)];
  }
  const errs: FieldError[] = [];
  const dedupe = new Map<string, number[]>();
  let rest = Buffer.from(bundle, 'utf8').toString('latin1');
  for (let i = 0; ; i++) {
    const found = decodePem(rest);
    if (found === undefined) break;
    rest = found.rest;
    const { block } = found;
    if (block.type !== 'CERTIFICATE') {
      errs.push(fieldErrors.invalid(path, omitted, `entry ${i} has bad block type: ${block.type}`));
      continue;
    }
    if (block.headers.length !== 0) {
      errs.push(fieldErrors.invalid(path, omitted, `entry ${i} has PEM block headers`));
      continue;
    }
    let isCA: boolean;
    let basicConstraintsValid: boolean;
    try {
      ({ isCA, basicConstraintsValid } = parseCertificate(block.bytes));
    } catch (err) {
      if (!(err instanceof X509Error)) throw err;
      errs.push(fieldErrors.invalid(path, omitted, `entry ${i} does not parse as X.509`));
      continue;
    }
    if (!isCA) {
      errs.push(fieldErrors.invalid(path, omitted, `entry ${i} does not have the CA bit set`));
      continue;
    }
    if (!basicConstraintsValid) {
      errs.push(fieldErrors.invalid(path, omitted, `entry ${i} has invalid basic constraints`));
      continue;
    }
    const key = block.bytes.toString('base64');
    dedupe.set(key, [...(dedupe.get(key) ?? []), i]);
  }
  if (errs.length > 0) return errs;
  if (dedupe.size === 0)
    errs.push(fieldErrors.invalid(path, omitted, 'at least one trust anchor must be provided'));
  for (const indices of dedupe.values()) {
    if (indices.length > 1) {
      errs.push(
        fieldErrors.invalid(path, omitted, `duplicate trust anchor (indices [${indices.join(' ')}])`),
      );
    }
  }
  return errs;
}

function validateName(b: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const nameFn = clusterTrustBundleNameFunc(signerNameOf(b));
  const generateName = b.metadata.generateName ?? '';
  if (generateName !== '') {
    for (const m of nameFn(generateName, true)) {
      errs.push(fieldErrors.invalid(FieldPath.root('metadata', 'generateName'), generateName, m));
    }
  }
  const name = b.metadata.name ?? '';
  if (name !== '') {
    for (const m of nameFn(name, false))
      errs.push(fieldErrors.invalid(FieldPath.root('metadata', 'name'), name, m));
  }
  return errs;
}

function validate(b: KubeObject, parseBundle: boolean): FieldError[] {
  const errs = validateName(b);
  const signerName = signerNameOf(b);
  if (signerName !== '') errs.push(...validateSignerName(FieldPath.root('spec', 'signerName'), signerName));
  if (parseBundle) errs.push(...validateTrustBundle(FieldPath.root('spec', 'trustBundle'), trustBundleOf(b)));
  return errs;
}

/** Upstream ValidateClusterTrustBundle (after the generic metadata checks). */
export function validateClusterTrustBundle(b: KubeObject): FieldError[] {
  return validate(b, true);
}

/**
 * Upstream ValidateClusterTrustBundleUpdate: an unchanged bundle is not parsed again, and
 * spec.signerName may not change.
 */
export function validateClusterTrustBundleUpdate(b: KubeObject, old: KubeObject): FieldError[] {
  const errs = validate(b, trustBundleOf(b) !== trustBundleOf(old));
  const signerName = signerNameOf(b);
  if (signerName !== signerNameOf(old)) {
    errs.push(fieldErrors.invalid(FieldPath.root('spec', 'signerName'), signerName, fieldImmutableErrorMsg));
  }
  return errs;
}
