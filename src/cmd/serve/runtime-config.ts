/**
 * `--runtime-config` (upstream's API enablement): which group-versions are served. By default every
 * GA group-version and the betas v1.27 enables by default; alpha ones only when asked for, e.g.
 * `--runtime-config=certificates.k8s.io/v1alpha1=true` or `api/alpha=true`. Keys: `api/all`,
 * `api/ga`, `api/beta`, `api/alpha`, `<group>/<version>` (core: `v1` or `api/v1`); values `true`
 * or `false`, a bare key meaning true. Later entries win over earlier ones, and a group-version
 * entry wins over the `api/*` ones, as upstream.
 */

export class RuntimeConfigError extends Error {
  override readonly name = 'RuntimeConfigError';
}

/** Betas v1.27 serves by default (upstream's DefaultAPIResourceConfigSource). */
const defaultOnBetas = new Set([
  'flowcontrol.apiserver.k8s.io/v1beta2',
  'flowcontrol.apiserver.k8s.io/v1beta3',
  'authentication.k8s.io/v1beta1',
]);

type Stage = 'ga' | 'beta' | 'alpha';

function stageOf(version: string): Stage {
  if (/alpha\d*$/.test(version)) return 'alpha';
  if (/beta\d*$/.test(version)) return 'beta';
  return 'ga';
}

export interface RuntimeConfig {
  /** Whether `group`/`version` is served. */
  enabled(group: string, version: string): boolean;
}

function parseValue(key: string, value: string | undefined): boolean {
  if (value === undefined || value === 'true') return true;
  if (value === 'false') return false;
  throw new RuntimeConfigError(`invalid value ${value} for key ${key}`);
}

export function parseRuntimeConfig(text: string): RuntimeConfig {
  const stages = new Map<Stage, boolean>();
  const versions = new Map<string, boolean>();
  for (const entry of text.split(',')) {
    const trimmed = entry.trim();
    if (trimmed === '') continue;
    const eq = trimmed.indexOf('=');
    const key = eq < 0 ? trimmed : trimmed.slice(0, eq);
    const on = parseValue(key, eq < 0 ? undefined : trimmed.slice(eq + 1));
    if (key === 'api/all') {
      for (const s of ['ga', 'beta', 'alpha'] as const) stages.set(s, on);
    } else if (key === 'api/ga' || key === 'api/beta' || key === 'api/alpha') {
      stages.set(key.slice(4) as Stage, on);
    } else {
      const gv = key === 'api/v1' ? 'v1' : key;
      const parts = gv.split('/');
      if (parts.length > 2 || parts.some((p) => p === '')) {
        throw new RuntimeConfigError(
          `invalid key ${key}: expected api/all, api/ga, api/beta, api/alpha or <group>/<version>`,
        );
      }
      versions.set(gv, on);
    }
  }
  return {
    enabled(group, version) {
      const gv = group === '' ? version : `${group}/${version}`;
      const explicit = versions.get(gv);
      if (explicit !== undefined) return explicit;
      const stage = stageOf(version);
      const byStage = stages.get(stage);
      if (byStage !== undefined) return byStage;
      return stage === 'ga' || (stage === 'beta' && defaultOnBetas.has(gv));
    },
  };
}
