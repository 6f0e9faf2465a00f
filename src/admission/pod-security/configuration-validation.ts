/**
 * Checks of a decoded PodSecurityConfiguration (upstream admission/api ToPolicy and
 * validation.ValidatePodSecurityConfiguration): the defaults must parse as levels and versions;
 * exempt namespaces must be DNS labels, runtime classes DNS subdomains, user names non-empty, and
 * none listed twice.
 */
import { FieldPath, fieldErrors, type FieldError } from '../../machinery/field/errors.js';
import { nameIsDNSLabel, nameIsDNSSubdomain } from '../../machinery/validation/names.js';
import type { PodSecurityConfiguration, PodSecurityDefaults } from './configuration.js';
import { parseLevel, type Level } from './level.js';
import type { Policy } from './policy.js';
import { parseVersion, type PolicyVersion } from './version.js';

/** upstream ToPolicy: the default policy, or the errors as `enforce: must be one of ...`. */
export function toPolicy(d: PodSecurityDefaults): {
  readonly policy: Policy;
  readonly errors: readonly string[];
} {
  const errors: string[] = [];
  const level = (value: string, field: string): Level => {
    if (value === '') errors.push(`${field}: required`);
    const r = parseLevel(value);
    if (value !== '' && r.error !== undefined) errors.push(`${field}: ${r.error}`);
    return r.level;
  };
  const version = (value: string, field: string): PolicyVersion => {
    if (value === '') errors.push(`${field}: required`);
    const r = parseVersion(value);
    if (value !== '' && r.error !== undefined) errors.push(`${field}: ${r.error}`);
    return r.version;
  };
  const enforce = {
    level: level(d.enforce, 'enforce'),
    version: version(d.enforceVersion, 'enforce-version'),
  };
  const audit = { level: level(d.audit, 'audit'), version: version(d.auditVersion, 'audit-version') };
  const warn = { level: level(d.warn, 'warn'), version: version(d.warnVersion, 'warn-version') };
  return { policy: { enforce, audit, warn }, errors };
}

export function validatePodSecurityConfiguration(c: PodSecurityConfiguration): FieldError[] {
  const errs: FieldError[] = [];
  const defaults = FieldPath.root('defaults');
  const level = (field: string, value: string): void => {
    const r = parseLevel(value);
    if (r.error !== undefined) errs.push(fieldErrors.invalid(defaults.child(field), value, r.error));
  };
  const version = (field: string, value: string): void => {
    const r = parseVersion(value);
    if (r.error !== undefined) errs.push(fieldErrors.invalid(defaults.child(field), value, r.error));
  };
  level('enforce', c.defaults.enforce);
  version('enforce-version', c.defaults.enforceVersion);
  level('warn', c.defaults.warn);
  version('warn-version', c.defaults.warnVersion);
  level('audit', c.defaults.audit);
  version('audit-version', c.defaults.auditVersion);

  const list = (field: string, values: readonly string[], check: (v: string) => string | undefined): void => {
    const path = FieldPath.root('exemptions', field);
    const seen = new Set<string>();
    values.forEach((v, i) => {
      const problem = check(v);
      if (problem !== undefined) errs.push(fieldErrors.invalid(path.index(i), v, problem));
      else if (seen.has(v)) errs.push(fieldErrors.duplicate(path.index(i), v));
      else seen.add(v);
    });
  };
  const joined = (msgs: readonly string[]): string | undefined =>
    msgs.length > 0 ? msgs.join(', ') : undefined;
  list('namespaces', c.exemptions.namespaces, (v) => joined(nameIsDNSLabel(v, false)));
  list('runtimeClasses', c.exemptions.runtimeClasses, (v) => joined(nameIsDNSSubdomain(v, false)));
  list('usernames', c.exemptions.usernames, (v) => (v === '' ? 'username must not be empty' : undefined));
  return errs;
}
