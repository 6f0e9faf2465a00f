/**
 * CertificateSigningRequest validation as pkg/apis/certificates/validation (release-1.27), on
 * certificates.k8s.io/v1 JSON. metadata is validated by the generic store (CSR names are only
 * path-segment checked upstream too). Upstream tolerates problems an update finds already stored
 * (legacy signer, duplicate or empty condition types, unknown or duplicate usages, both Approved
 * and Denied, an unparsable certificate) so old objects stay updatable; the same options apply.
 * The kubelet signers' rules are not validation's business upstream (the signing controller and
 * the CertificateSubjectRestriction admission plugin enforce them), so they are not here either.
 */
import { FieldPath, fieldErrors } from '../../../machinery/field/errors.js';
import type { FieldError } from '../../../machinery/field/errors.js';
import type { KubeObject } from '../../../machinery/object.js';
import { invalidRendered } from '../../../machinery/validation/gosyntax.js';
import { jsonEqual } from '../../../util/json.js';
import type { JsonObject } from '../../../util/json.js';
import { num, obj, objArr, str } from '../../core/v1/access.js';
import { decodePem } from '../pem.js';
import { validateSignerName } from '../signername.js';
import { X509Error, checkRequestSignature, parseCertificateRequest, parseCertificates } from '../x509.js';

export const legacyUnknownSignerName = 'kubernetes.io/legacy-unknown';

/** Upstream's key usages (certificates.KeyUsage constants), sorted as sets.List returns them. */
export const allValidUsages: readonly string[] = [
  'signing',
  'digital signature',
  'content commitment',
  'key encipherment',
  'key agreement',
  'data encipherment',
  'cert sign',
  'crl sign',
  'encipher only',
  'decipher only',
  'any',
  'server auth',
  'client auth',
  'code signing',
  'email protection',
  's/mime',
  'ipsec end system',
  'ipsec tunnel',
  'ipsec user',
  'timestamping',
  'ocsp signing',
  'microsoft sgc',
  'netscape sgc',
].sort();

/** Condition types whose status may only be True. */
const trueConditionTypes = new Set(['Approved', 'Denied', 'Failed']);
const trueStatusOnly = ['True'];
const allStatusValues = ['False', 'True', 'Unknown'];

interface Options {
  readonly allowSettingApprovalConditions: boolean;
  readonly allowSettingCertificate: boolean;
  readonly allowBothApprovedAndDenied: boolean;
  readonly allowLegacySignerName: boolean;
  readonly allowDuplicateConditionTypes: boolean;
  readonly allowEmptyConditionType: boolean;
  readonly allowArbitraryCertificate: boolean;
  readonly allowUnknownUsages: boolean;
  readonly allowDuplicateUsages: boolean;
}

const spec = (csr: KubeObject): JsonObject | undefined => obj(csr, 'spec');
const status = (csr: KubeObject): JsonObject | undefined => obj(csr, 'status');
const usagesOf = (csr: KubeObject): string[] => {
  const v = spec(csr)?.['usages'];
  return Array.isArray(v) ? v.map((u) => (typeof u === 'string' ? u : '')) : [];
};
const conditionsOf = (csr: KubeObject): JsonObject[] => objArr(status(csr), 'conditions');

/** A `format: byte` field as Go's []byte: undefined for nil (absent or null). */
function bytesField(o: JsonObject | undefined, key: string): Buffer | undefined {
  const v = o?.[key];
  return typeof v === 'string' ? Buffer.from(v, 'base64') : undefined;
}

/** Go's `%#v` of a []byte: `[]byte(nil)`, `[]byte{}`, `[]byte{0x2d, 0xa}`. */
export function goBytes(b: Buffer | undefined): string {
  if (b === undefined) return '[]byte(nil)';
  return `[]byte{${Array.from(b, (x) => `0x${x.toString(16)}`).join(', ')}}`;
}

/** certificates.ParseCSR + CheckSignature: undefined when valid, else the error text. */
export function csrRequestError(request: Buffer | undefined): string | undefined {
  const found = decodePem((request ?? Buffer.alloc(0)).toString('latin1'));
  if (found === undefined || found.block.type !== 'CERTIFICATE REQUEST') {
    return 'PEM block type must be CERTIFICATE REQUEST';
  }
  try {
    return checkRequestSignature(parseCertificateRequest(found.block.bytes));
  } catch (err) {
    if (err instanceof X509Error) return err.message;
    throw err;
  }
}

/** Upstream validateCertificate: status.certificate holds only CERTIFICATE blocks (or nothing). */
export function certificateDataError(pemData: Buffer | undefined): string | undefined {
  if (pemData === undefined || pemData.length === 0) return undefined;
  let rest = pemData.toString('latin1');
  let blocks = 0;
  for (;;) {
    const found = decodePem(rest);
    if (found === undefined) break;
    const { block } = found;
    if (block.type !== 'CERTIFICATE') {
      return `only CERTIFICATE PEM blocks are allowed, found ${JSON.stringify(block.type)}`;
    }
    if (block.headers.length !== 0) return 'no PEM block headers are permitted';
    blocks++;
    try {
      if (parseCertificates(block.bytes).length === 0) {
        return 'found CERTIFICATE PEM block containing 0 certificates';
      }
    } catch (err) {
      if (err instanceof X509Error) return err.message;
      throw err;
    }
    rest = found.rest;
  }
  if (blocks === 0) return 'must contain at least one CERTIFICATE PEM block';
  return undefined;
}

function hasDuplicates(values: readonly string[]): boolean {
  return new Set(values).size !== values.length;
}

function optionsFor(csr: KubeObject, old: KubeObject | undefined): Options {
  const oldTypes = old === undefined ? [] : conditionsOf(old).map((c) => str(c, 'type') ?? '');
  const oldCert = old === undefined ? undefined : bytesField(status(old), 'certificate');
  const newCert = bytesField(status(csr), 'certificate');
  const oldUsages = old === undefined ? [] : usagesOf(old);
  return {
    allowSettingApprovalConditions: false,
    allowSettingCertificate: false,
    allowBothApprovedAndDenied: oldTypes.includes('Approved') && oldTypes.includes('Denied'),
    allowLegacySignerName: old !== undefined && str(spec(old), 'signerName') === legacyUnknownSignerName,
    allowDuplicateConditionTypes: hasDuplicates(oldTypes),
    allowEmptyConditionType: oldTypes.includes(''),
    allowArbitraryCertificate:
      old !== undefined &&
      ((oldCert ?? Buffer.alloc(0)).equals(newCert ?? Buffer.alloc(0)) ||
        certificateDataError(oldCert) !== undefined),
    allowUnknownUsages: oldUsages.some((u) => !allValidUsages.includes(u)),
    allowDuplicateUsages: hasDuplicates(oldUsages),
  };
}

function validateConditions(path: FieldPath, csr: KubeObject, opts: Options): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  let hasApproved = false;
  let hasDenied = false;
  conditionsOf(csr).forEach((c, i) => {
    const type = str(c, 'type') ?? '';
    const st = str(c, 'status') ?? '';
    if (!opts.allowEmptyConditionType && type === '') {
      errs.push(fieldErrors.required(path.index(i).child('type'), ''));
    }
    const allowed = trueConditionTypes.has(type) ? trueStatusOnly : allStatusValues;
    if (st === '') errs.push(fieldErrors.required(path.index(i).child('status'), ''));
    else if (!allowed.includes(st))
      errs.push(fieldErrors.notSupported(path.index(i).child('status'), st, allowed));
    if (!opts.allowBothApprovedAndDenied) {
      if (type === 'Approved') {
        hasApproved = true;
        if (hasDenied) {
          errs.push(
            fieldErrors.invalid(
              path.index(i).child('type'),
              type,
              'Approved and Denied conditions are mutually exclusive',
            ),
          );
        }
      } else if (type === 'Denied') {
        hasDenied = true;
        if (hasApproved) {
          errs.push(
            fieldErrors.invalid(
              path.index(i).child('type'),
              type,
              'Approved and Denied conditions are mutually exclusive',
            ),
          );
        }
      }
    }
    if (!opts.allowDuplicateConditionTypes) {
      if (seen.has(type)) errs.push(fieldErrors.duplicate(path.index(i).child('type'), type));
      seen.add(type);
    }
  });
  return errs;
}

function validateCsr(csr: KubeObject, opts: Options): FieldError[] {
  const errs: FieldError[] = [];
  const specPath = FieldPath.root('spec');
  const s = spec(csr);
  const request = bytesField(s, 'request');
  const requestErr = csrRequestError(request);
  if (requestErr !== undefined) {
    errs.push(invalidRendered(specPath.child('request'), goBytes(request), requestErr));
  }
  const usages = usagesOf(csr);
  if (usages.length === 0) errs.push(fieldErrors.required(specPath.child('usages'), ''));
  if (!opts.allowUnknownUsages) {
    usages.forEach((u, i) => {
      if (!allValidUsages.includes(u)) {
        errs.push(fieldErrors.notSupported(specPath.child('usages').index(i), u, allValidUsages));
      }
    });
  }
  if (!opts.allowDuplicateUsages) {
    const seen = new Set<string>();
    usages.forEach((u, i) => {
      if (seen.has(u)) errs.push(fieldErrors.duplicate(specPath.child('usages').index(i), u));
      seen.add(u);
    });
  }
  const signerName = str(s, 'signerName') ?? '';
  if (!opts.allowLegacySignerName && signerName === legacyUnknownSignerName) {
    errs.push(
      fieldErrors.invalid(
        specPath.child('signerName'),
        signerName,
        'the legacy signerName is not allowed via this API version',
      ),
    );
  } else {
    errs.push(...validateSignerName(specPath.child('signerName'), signerName));
  }
  const expirationSeconds = num(s, 'expirationSeconds');
  if (expirationSeconds !== undefined && expirationSeconds < 600) {
    errs.push(
      fieldErrors.invalid(
        specPath.child('expirationSeconds'),
        expirationSeconds,
        'may not specify a duration less than 600 seconds (10 minutes)',
      ),
    );
  }
  errs.push(...validateConditions(FieldPath.root('status', 'conditions'), csr, opts));
  if (!opts.allowArbitraryCertificate) {
    const certErr = certificateDataError(bytesField(status(csr), 'certificate'));
    if (certErr !== undefined) {
      errs.push(fieldErrors.invalid(FieldPath.root('status', 'certificate'), '<certificate data>', certErr));
    }
  }
  return errs;
}

function conditionsOfType(csr: KubeObject, type: string): JsonObject[] {
  return conditionsOf(csr).filter((c) => (str(c, 'type') ?? '') === type);
}

/** A stand-in for upstream's cmp.Diff of two condition lists (exact text is not reproducible). */
function conditionDiff(oldConds: readonly JsonObject[], newConds: readonly JsonObject[]): string {
  const lines = ['  []certificates.CertificateSigningRequestCondition{'];
  for (const c of oldConds) lines.push(`- \t${JSON.stringify(c)},`);
  for (const c of newConds) lines.push(`+ \t${JSON.stringify(c)},`);
  lines.push('  }', '');
  return lines.join('\n');
}

function validateCsrUpdate(csr: KubeObject, old: KubeObject, opts: Options): FieldError[] {
  const errs = validateCsr(csr, opts);
  const condPath = FieldPath.root('status', 'conditions');
  for (const t of ['Approved', 'Denied', 'Failed']) {
    if (conditionsOfType(csr, t).length < conditionsOfType(old, t).length) {
      errs.push(fieldErrors.forbidden(condPath, `updates may not remove a condition of type "${t}"`));
    }
  }
  if (!opts.allowSettingApprovalConditions) {
    for (const t of ['Approved', 'Denied']) {
      const oldConds = conditionsOfType(old, t);
      const newConds = conditionsOfType(csr, t);
      if (newConds.length < oldConds.length) continue; // reported above
      if (newConds.length > oldConds.length) {
        errs.push(fieldErrors.forbidden(condPath, `updates may not add a condition of type "${t}"`));
      } else if (!jsonEqual(oldConds, newConds)) {
        errs.push(
          fieldErrors.forbidden(
            condPath,
            `updates may not modify a condition of type "${t}"\n${conditionDiff(oldConds, newConds)}`,
          ),
        );
      }
    }
  }
  const newCert = bytesField(status(csr), 'certificate') ?? Buffer.alloc(0);
  const oldCert = bytesField(status(old), 'certificate') ?? Buffer.alloc(0);
  if (!newCert.equals(oldCert)) {
    const certPath = FieldPath.root('status', 'certificate');
    if (!opts.allowSettingCertificate) {
      errs.push(fieldErrors.forbidden(certPath, 'updates may not set certificate content'));
    } else if (oldCert.length > 0) {
      errs.push(fieldErrors.forbidden(certPath, 'updates may not modify existing certificate content'));
    }
  }
  return errs;
}

/** Upstream ValidateCertificateSigningRequestCreate. */
export function validateCertificateSigningRequestCreate(csr: KubeObject): FieldError[] {
  return validateCsr(csr, optionsFor(csr, undefined));
}

/** Upstream ValidateCertificateSigningRequestUpdate (the main resource). */
export function validateCertificateSigningRequestUpdate(csr: KubeObject, old: KubeObject): FieldError[] {
  return validateCsrUpdate(csr, old, optionsFor(csr, old));
}

/** Upstream ValidateCertificateSigningRequestStatusUpdate: status.certificate may be set once. */
export function validateCertificateSigningRequestStatusUpdate(
  csr: KubeObject,
  old: KubeObject,
): FieldError[] {
  return validateCsrUpdate(csr, old, { ...optionsFor(csr, old), allowSettingCertificate: true });
}

/** Upstream ValidateCertificateSigningRequestApprovalUpdate: Approved/Denied may be added. */
export function validateCertificateSigningRequestApprovalUpdate(
  csr: KubeObject,
  old: KubeObject,
): FieldError[] {
  return validateCsrUpdate(csr, old, { ...optionsFor(csr, old), allowSettingApprovalConditions: true });
}
