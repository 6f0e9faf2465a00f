/**
 * Upstream's ValidateEncryptionConfiguration (k8s.io/apiserver pkg/apis/config/validation), with
 * its messages and field paths.
 */
import type { FieldError } from '../../../machinery/field/errors.js';
import { FieldPath, fieldErrors, goRendered } from '../../../machinery/field/errors.js';
import type {
  EncryptionConfiguration,
  EncryptionKey,
  KmsConfiguration,
  ProviderConfiguration,
} from './types.js';
import { parseGroupResource } from './types.js';

const moreThanOneElementErr =
  'more than one provider specified in a single element, should split into different list elements';
const noProviderErr =
  'provider does not contain any of the expected providers: KMS, AESGCM, AESCBC, Secretbox, Identity';
const eventsGroupErr =
  "'*.events.k8s.io' objects are stored using the 'events' API group in etcd. Use 'events' instead in the config file";
const extensionsGroupErr = "'extensions' group has been removed and cannot be used for encryption";
const starResourceErr =
  "use '*.' to encrypt all the resources from core API group or *.* to encrypt all resources";
const overlapErr =
  "using overlapping resources such as 'secrets' and '*.' in the same resource list is not allowed as they will be masked";
const nonRESTAPIResourceErr = 'resources which do not have REST API/s cannot be encrypted';
const resourceNameErr = 'resource name should not contain capital letters';
const resourceAcrossGroupErr = 'encrypting the same resource across groups is not supported';
const duplicateResourceErr = 'the same resource cannot be specified multiple times';

const aesKeySizes = [16, 24, 32];
const secretboxKeySizes = [32];

const root = FieldPath.root('resources');

function atLeastOne(what: string): string {
  return `at least one ${what} is required`;
}

function mandatory(field: string, of: string): string {
  return `${field} is a mandatory field for a ${of}`;
}

/** Go's `%#v` of the provider struct, shortened to the providers it names. */
function providerValue(p: ProviderConfiguration): unknown {
  const set = Object.keys(p).map((k) => `${k}:{...}`);
  return goRendered(`config.ProviderConfiguration{${set.join(', ')}}`);
}

function validateResourceOverlap(resources: readonly string[], path: FieldPath): FieldError[] {
  if (resources.length < 2) return [];
  const grs = resources.map(parseGroupResource);
  let overlap = false;
  let duplicate = false;
  grs.forEach((r1, i) => {
    grs.forEach((r2, j) => {
      if (i === j) return;
      if (r1.group === r2.group && r1.resource === r2.resource && !duplicate) {
        duplicate = true;
        return;
      }
      if (overlap) return;
      if (r1.group === '*' && r1.resource === '*') {
        overlap = true;
        return;
      }
      if (r1.group !== r2.group) return;
      if (r1.resource === '*' || r2.resource === '*') overlap = true;
    });
  });
  const errs: FieldError[] = [];
  if (duplicate) errs.push(fieldErrors.invalid(path, resources, duplicateResourceErr));
  if (overlap) errs.push(fieldErrors.invalid(path, resources, overlapErr));
  return errs;
}

function validateResourceNames(resources: readonly string[], path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  resources.forEach((res, j) => {
    const p = path.index(j);
    if (res.toLowerCase() !== res) errs.push(fieldErrors.invalid(p, res, resourceNameErr));
    else if (res === '*') errs.push(fieldErrors.invalid(p, res, starResourceErr));
    else if (
      res === 'apiserveripinfo' ||
      res === 'serviceipallocations' ||
      res === 'servicenodeportallocations'
    ) {
      errs.push(fieldErrors.invalid(p, res, nonRESTAPIResourceErr));
    } else {
      const gr = parseGroupResource(res);
      if (gr.group === 'events.k8s.io') errs.push(fieldErrors.invalid(p, res, eventsGroupErr));
      else if (gr.group === 'extensions') errs.push(fieldErrors.invalid(p, res, extensionsGroupErr));
      else if (gr.group === '*' && gr.resource !== '*')
        errs.push(fieldErrors.invalid(p, res, resourceAcrossGroupErr));
    }
  });
  return errs;
}

function validateSingleProvider(p: ProviderConfiguration, path: FieldPath): FieldError[] {
  const found = [p.kms, p.aesgcm, p.aescbc, p.secretbox, p.identity].filter((x) => x !== undefined).length;
  if (found === 0) return [fieldErrors.invalid(path, providerValue(p), noProviderErr)];
  if (found > 1) return [fieldErrors.invalid(path, providerValue(p), moreThanOneElementErr)];
  return [];
}

/** Go's base64.StdEncoding.DecodeString: padded standard alphabet only. */
export function decodeStdBase64(text: string): Buffer | undefined {
  if (text.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return undefined;
  return Buffer.from(text, 'base64');
}

function validateKey(key: EncryptionKey, path: FieldPath, sizes: readonly number[]): FieldError[] {
  const errs: FieldError[] = [];
  if (key.name === '') errs.push(fieldErrors.required(path.child('name'), mandatory('name', 'key')));
  if (key.secret === '') {
    errs.push(fieldErrors.required(path.child('secret'), mandatory('secret', 'key')));
    return errs;
  }
  const secret = decodeStdBase64(key.secret);
  if (secret === undefined) {
    errs.push(fieldErrors.invalid(path.child('secret'), 'REDACTED', 'secrets must be base64 encoded'));
    return errs;
  }
  if (!sizes.includes(secret.byteLength)) {
    errs.push(
      fieldErrors.invalid(
        path.child('secret'),
        'REDACTED',
        `secret is not of the expected length, got ${secret.byteLength}, expected one of [${sizes.join(' ')}]`,
      ),
    );
  }
  return errs;
}

function validateKeys(
  keys: readonly EncryptionKey[],
  path: FieldPath,
  sizes: readonly number[],
): FieldError[] {
  if (keys.length === 0) return [fieldErrors.required(path, atLeastOne('keys'))];
  return keys.flatMap((k, i) => validateKey(k, path.index(i), sizes));
}

function validateKms(
  c: KmsConfiguration,
  path: FieldPath,
  names: Set<string>,
  reload: boolean,
): FieldError[] {
  const errs: FieldError[] = [];
  const namePath = path.child('name');
  if (c.name === '') errs.push(fieldErrors.required(namePath, mandatory('name', 'provider')));
  if (c.apiVersion !== 'v1' && c.name.includes(':')) {
    errs.push(
      fieldErrors.invalid(namePath, c.name, `invalid KMS provider name ${c.name}, must not contain ':'`),
    );
  }
  if ((reload || c.apiVersion !== 'v1') && names.has(c.name)) {
    errs.push(
      fieldErrors.invalid(namePath, c.name, `duplicate KMS provider name ${c.name}, names must be unique`),
    );
  }
  if (c.timeoutMs <= 0) {
    errs.push(
      fieldErrors.invalid(
        path.child('timeout'),
        goRendered(`&v1.Duration{Duration:${c.timeoutNanos}}`),
        'timeout should be a positive value',
      ),
    );
  }
  errs.push(...validateEndpoint(c.endpoint, path.child('endpoint')));
  const cachePath = path.child('cachesize');
  if (c.apiVersion !== 'v1' && c.cachesize !== undefined) {
    errs.push(fieldErrors.invalid(cachePath, c.cachesize, 'cachesize is not supported in v2'));
  }
  if (c.apiVersion === 'v1' && c.cachesize === 0) {
    errs.push(
      fieldErrors.invalid(cachePath, 0, 'cachesize should be a positive value, or negative to disable'),
    );
  }
  if (c.apiVersion !== 'v1' && c.apiVersion !== 'v2') {
    errs.push(
      fieldErrors.invalid(
        path.child('apiVersion'),
        c.apiVersion,
        'unsupported apiVersion apiVersion for KMS provider, only v1 and v2 are supported',
      ),
    );
  }
  return errs;
}

/** The URL scheme as Go's url.Parse finds it ("" when there is none). */
function urlScheme(endpoint: string): string {
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(endpoint);
  return m === null ? '' : m[1]!.toLowerCase();
}

function validateEndpoint(endpoint: string, path: FieldPath): FieldError[] {
  if (endpoint === '') return [fieldErrors.invalid(path, '', mandatory('endpoint', 'kms'))];
  const scheme = urlScheme(endpoint);
  if (scheme !== 'unix') {
    return [
      fieldErrors.invalid(
        path,
        endpoint,
        `unsupported scheme "${scheme}" for KMS provider, only unix is supported`,
      ),
    ];
  }
  return [];
}

export function validateEncryptionConfiguration(c: EncryptionConfiguration, reload: boolean): FieldError[] {
  if (c.resources.length === 0) return [fieldErrors.required(root, atLeastOne('resources'))];
  const errs: FieldError[] = [];
  const kmsNames = new Set<string>();
  c.resources.forEach((conf, i) => {
    const r = root.index(i).child('resources');
    const p = root.index(i).child('providers');
    if (conf.resources.length === 0) errs.push(fieldErrors.required(r, atLeastOne(r.toString())));
    errs.push(...validateResourceOverlap(conf.resources, r));
    errs.push(...validateResourceNames(conf.resources, r));
    if (conf.providers.length === 0) errs.push(fieldErrors.required(p, atLeastOne(p.toString())));
    conf.providers.forEach((provider, j) => {
      const path = p.index(j);
      errs.push(...validateSingleProvider(provider, path));
      if (provider.kms !== undefined) {
        errs.push(...validateKms(provider.kms, path.child('kms'), kmsNames, reload));
        kmsNames.add(provider.kms.name);
      } else if (provider.aesgcm !== undefined) {
        errs.push(...validateKeys(provider.aesgcm.keys, path.child('aesgcm').child('keys'), aesKeySizes));
      } else if (provider.aescbc !== undefined) {
        errs.push(...validateKeys(provider.aescbc.keys, path.child('aescbc').child('keys'), aesKeySizes));
      } else if (provider.secretbox !== undefined) {
        errs.push(
          ...validateKeys(provider.secretbox.keys, path.child('secretbox').child('keys'), secretboxKeySizes),
        );
      }
    });
  });
  return errs;
}

/** Upstream ErrorList.ToAggregate().Error(): one message as is, several as `[a, b]` (deduplicated). */
export function aggregateMessage(errs: readonly FieldError[]): string {
  const msgs = [...new Set(errs.map((e) => e.toString()))];
  return msgs.length === 1 ? msgs[0]! : `[${msgs.join(', ')}]`;
}
