/**
 * `--enable-admission-plugins` and `--disable-admission-plugins` as kube-apiserver v1.27 reads
 * them (k8s.io/apiserver/pkg/server/options/admission.go): names are checked against the known
 * plugins, a name may not be in both lists, and the plugins that run are the default set plus the
 * enabled ones minus the disabled ones, in upstream's order whatever order the flags give.
 */
import { defaultOnPluginNames, orderedPluginNames } from './catalog.js';

export interface AdmissionPluginFlags {
  readonly enable?: readonly string[];
  readonly disable?: readonly string[];
}

/** Splits a flag's comma-separated list (spaces around names are dropped, empty entries skipped). */
export function parsePluginList(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** The flags' errors in upstream's words (empty when they are fine). */
export function validateAdmissionPluginFlags(flags: AdmissionPluginFlags): string[] {
  const known = new Set(orderedPluginNames);
  const errors: string[] = [];
  for (const name of flags.enable ?? []) {
    if (!known.has(name)) errors.push(`enable-admission-plugins plugin "${name}" is unknown`);
  }
  for (const name of flags.disable ?? []) {
    if (!known.has(name)) errors.push(`disable-admission-plugins plugin "${name}" is unknown`);
  }
  const disabled = new Set(flags.disable ?? []);
  const both = [...new Set(flags.enable ?? [])].filter((n) => disabled.has(n)).sort();
  if (both.length > 0) {
    errors.push(`[${both.join(' ')}] in enable-admission-plugins and disable-admission-plugins overlapped`);
  }
  return errors;
}

/** The plugins that run, in upstream's order (throws the flags' errors, aggregated as upstream prints them). */
export function enabledPluginNames(flags: AdmissionPluginFlags): string[] {
  const errors = validateAdmissionPluginFlags(flags);
  if (errors.length === 1) throw new Error(errors[0]);
  if (errors.length > 1) throw new Error(`[${errors.join(', ')}]`);
  const enabled = new Set(flags.enable ?? []);
  const disabled = new Set(flags.disable ?? []);
  return orderedPluginNames.filter(
    (n) => enabled.has(n) || (defaultOnPluginNames.has(n) && !disabled.has(n)),
  );
}
