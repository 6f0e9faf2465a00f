/**
 * Signer names and ClusterTrustBundle names as pkg/apis/core/validation (release-1.27)
 * ValidateSignerName / ValidateClusterTrustBundleName check them.
 */
import { fieldErrors } from '../../machinery/field/errors.js';
import type { FieldError, FieldPath } from '../../machinery/field/errors.js';
import {
  dns1123LabelMaxLength,
  dns1123SubdomainMaxLength,
  isDNS1123Label,
  isDNS1123Subdomain,
  nameIsDNSSubdomain,
} from '../../machinery/validation/names.js';
import type { ValidateNameFunc } from '../../machinery/validation/names.js';

const byteLen = (s: string): number => Buffer.byteLength(s, 'utf8');

/** `<fully qualified domain>/<path>`: at most 253 + 1 + 317 bytes. */
export function validateSignerName(path: FieldPath, signerName: string): FieldError[] {
  const errs: FieldError[] = [];
  if (signerName === '') return [fieldErrors.required(path, '')];
  const segments = signerName.split('/');
  if (segments.length !== 2) {
    return [
      fieldErrors.invalid(
        path,
        signerName,
        "must be a fully qualified domain and path of the form 'example.com/signer-name'",
      ),
    ];
  }
  const [domain, rest] = segments as [string, string];
  if (byteLen(domain) > dns1123SubdomainMaxLength) {
    errs.push(fieldErrors.tooLong(path, '', dns1123SubdomainMaxLength));
  }
  const domainLabels = domain.split('.');
  for (const label of domainLabels) {
    const msgs = isDNS1123Label(label);
    if (msgs.length > 0) {
      for (const m of msgs) errs.push(fieldErrors.invalid(path, domain, `validating label "${label}": ${m}`));
      break;
    }
  }
  if (domainLabels.length < 2) {
    errs.push(
      fieldErrors.invalid(path, domain, 'should be a domain with at least two segments separated by dots'),
    );
  }
  for (const label of rest.split('.')) {
    const msgs = isDNS1123Subdomain(label);
    if (msgs.length > 0) {
      for (const m of msgs) errs.push(fieldErrors.invalid(path, rest, `validating label "${label}": ${m}`));
      break;
    }
  }
  const maxPath = dns1123SubdomainMaxLength + dns1123LabelMaxLength + 1;
  const maxSignerName = dns1123SubdomainMaxLength + maxPath + 1;
  if (byteLen(signerName) > maxSignerName) errs.push(fieldErrors.tooLong(path, '', maxSignerName));
  return errs;
}

/**
 * Names of ClusterTrustBundles: without a signer no `:`; with one, the prefix
 * `<signerName with / as :>:` and a DNS subdomain after it.
 */
export function clusterTrustBundleNameFunc(signerName: string): ValidateNameFunc {
  return (name, prefix) => {
    if (signerName === '') {
      if (name.includes(':')) return ['ClusterTrustBundle without signer name must not have ":" in its name'];
      return nameIsDNSSubdomain(name, prefix);
    }
    const required = `${signerName.replaceAll('/', ':')}:`;
    if (!name.startsWith(required)) {
      return [`ClusterTrustBundle for signerName ${signerName} must be named with prefix ${required}`];
    }
    return nameIsDNSSubdomain(name.slice(required.length), prefix);
  };
}
