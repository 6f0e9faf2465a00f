/**
 * PodSecurityConfiguration, the plugin's configuration in the admission configuration file
 * (upstream admission/api, served as pod-security.admission.config.k8s.io/v1, v1beta1 and
 * v1alpha1, which share one shape): decoded strictly as upstream's scheme does (unknown fields and
 * wrong types are errors), then defaulted (privileged:latest for every mode). No configuration at
 * all is the defaulted empty one.
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../../util/json.js';

export interface PodSecurityDefaults {
  readonly enforce: string;
  readonly enforceVersion: string;
  readonly audit: string;
  readonly auditVersion: string;
  readonly warn: string;
  readonly warnVersion: string;
}

export interface PodSecurityExemptions {
  readonly usernames: readonly string[];
  readonly namespaces: readonly string[];
  readonly runtimeClasses: readonly string[];
}

export interface PodSecurityConfiguration {
  readonly defaults: PodSecurityDefaults;
  readonly exemptions: PodSecurityExemptions;
}

export const podSecurityConfigGroup = 'pod-security.admission.config.k8s.io';
const kind = 'PodSecurityConfiguration';
const versions: ReadonlySet<string> = new Set(['v1', 'v1beta1', 'v1alpha1']);
/** Where upstream's scheme was made (runtime.NewScheme names a scheme after its call site). */
const schemeName = 'k8s.io/pod-security-admission/admission/api/scheme/scheme.go:31';

/** JSON field names (upstream's tags) to the internal ones. */
const defaultsFields: ReadonlyMap<string, keyof PodSecurityDefaults> = new Map([
  ['enforce', 'enforce'],
  ['enforce-version', 'enforceVersion'],
  ['audit', 'audit'],
  ['audit-version', 'auditVersion'],
  ['warn', 'warn'],
  ['warn-version', 'warnVersion'],
]);
const exemptionsFields: ReadonlyMap<string, keyof PodSecurityExemptions> = new Map([
  ['usernames', 'usernames'],
  ['namespaces', 'namespaces'],
  ['runtimeClasses', 'runtimeClasses'],
]);

/** Decodes and defaults the configuration; throws an Error with upstream's decoding message. */
export function decodePodSecurityConfiguration(value: JsonValue | undefined): PodSecurityConfiguration {
  if (value === undefined || value === null) return defaulted({}, {});
  const text = JSON.stringify(value);
  if (!isJsonObject(value)) {
    throw new Error(
      `couldn't get version/kind; json parse error: json: cannot unmarshal ${jsonKind(value)} into Go value of type ` +
        'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }',
    );
  }
  const apiVersion = value['apiVersion'];
  const k = value['kind'];
  if (typeof k !== 'string' || k === '') throw new Error(`Object 'Kind' is missing in '${text}'`);
  if (typeof apiVersion !== 'string' || apiVersion === '') {
    throw new Error(`Object 'apiVersion' is missing in '${text}'`);
  }
  const slash = apiVersion.indexOf('/');
  const group = slash < 0 ? '' : apiVersion.slice(0, slash);
  const version = slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
  if (group !== podSecurityConfigGroup || !versions.has(version) || k !== kind) {
    throw new Error(`no kind "${k}" is registered for version "${apiVersion}" in scheme "${schemeName}"`);
  }

  const d = new StrictDecoder(version);
  const defaults: Record<string, string> = {};
  const exemptions: Record<string, string[]> = {};
  for (const [key, v] of Object.entries(value)) {
    if (key === 'apiVersion' || key === 'kind') continue;
    if (key === 'defaults') {
      d.object(v, 'PodSecurityConfiguration', key, 'PodSecurityDefaults', (o) => {
        for (const [field, fv] of Object.entries(o)) {
          const name = defaultsFields.get(field);
          if (name === undefined) d.unknown(`defaults.${field}`);
          else defaults[name] = d.string(fv, 'PodSecurityDefaults', `defaults.${field}`);
        }
      });
    } else if (key === 'exemptions') {
      d.object(v, 'PodSecurityConfiguration', key, 'PodSecurityExemptions', (o) => {
        for (const [field, fv] of Object.entries(o)) {
          const name = exemptionsFields.get(field);
          if (name === undefined) d.unknown(`exemptions.${field}`);
          else exemptions[name] = d.strings(fv, 'PodSecurityExemptions', `exemptions.${field}`);
        }
      });
    } else {
      d.unknown(key);
    }
  }
  d.throwIfFailed();
  return defaulted(defaults, exemptions);
}

function defaulted(
  d: Readonly<Record<string, string>>,
  e: Readonly<Record<string, string[]>>,
): PodSecurityConfiguration {
  const or = (v: string | undefined, dflt: string): string => (v === undefined || v === '' ? dflt : v);
  return {
    defaults: {
      enforce: or(d['enforce'], 'privileged'),
      enforceVersion: or(d['enforceVersion'], 'latest'),
      audit: or(d['audit'], 'privileged'),
      auditVersion: or(d['auditVersion'], 'latest'),
      warn: or(d['warn'], 'privileged'),
      warnVersion: or(d['warnVersion'], 'latest'),
    },
    exemptions: {
      usernames: e['usernames'] ?? [],
      namespaces: e['namespaces'] ?? [],
      runtimeClasses: e['runtimeClasses'] ?? [],
    },
  };
}

/**
 * Go's json decoding into the versioned struct: the first type mismatch is the error (json's
 * UnmarshalTypeError), else any unknown fields are a strict decoding error.
 */
class StrictDecoder {
  readonly #version: string;
  #typeError: string | undefined;
  readonly #unknown: string[] = [];

  constructor(version: string) {
    this.#version = version;
  }

  object(v: JsonValue, struct: string, field: string, type: string, fn: (o: JsonObject) => void): void {
    if (v === null) return;
    if (!isJsonObject(v)) return this.#mismatch(v, struct, field, `${this.#version}.${type}`);
    fn(v);
  }

  string(v: JsonValue, struct: string, field: string): string {
    if (v === null) return '';
    if (typeof v !== 'string') {
      this.#mismatch(v, struct, field, 'string');
      return '';
    }
    return v;
  }

  strings(v: JsonValue, struct: string, field: string): string[] {
    if (v === null) return [];
    if (!Array.isArray(v)) {
      this.#mismatch(v, struct, field, '[]string');
      return [];
    }
    return v.map((item) => this.string(item, struct, field));
  }

  unknown(path: string): void {
    this.#unknown.push(`unknown field "${path}"`);
  }

  throwIfFailed(): void {
    if (this.#typeError !== undefined) throw new Error(this.#typeError);
    if (this.#unknown.length > 0) throw new Error(`strict decoding error: ${this.#unknown.join(', ')}`);
  }

  #mismatch(v: JsonValue, struct: string, field: string, type: string): void {
    this.#typeError ??= `json: cannot unmarshal ${jsonKind(v)} into Go struct field ${struct}.${field} of type ${type}`;
  }
}

function jsonKind(v: JsonValue): string {
  if (Array.isArray(v)) return 'array';
  if (v === null) return 'null';
  if (typeof v === 'object') return 'object';
  return typeof v === 'number' ? 'number' : typeof v === 'boolean' ? 'bool' : 'string';
}
