/**
 * The checks to run per level and policy version (upstream policy checkRegistry): for every
 * version from v1.0 to the newest any check names, each check's revision in force then; restricted
 * runs its own checks plus the baseline ones it does not override. Baseline checks run first, each
 * level's in ID order, so messages list reasons in upstream's order. Versions past the newest
 * (and `latest`) evaluate as the newest.
 */
import type { JsonObject } from '../../util/json.js';
import type { Check, CheckPodFn, CheckResult, VersionedCheck } from './check.js';
import type { LevelVersion } from './level-version.js';
import type { PodMetadata } from './pod-fields.js';

export class Evaluator {
  readonly #baseline: CheckPodFn[][] = [];
  readonly #restricted: CheckPodFn[][] = [];
  readonly #maxVersion: number;

  constructor(checks: readonly Check[]) {
    this.#maxVersion = Math.max(0, ...checks.map((c) => c.versions.at(-1)?.minimumVersion ?? 0));
    const byId = (a: Check, b: Check): number => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
    const baseline = checks.filter((c) => c.level === 'baseline').sort(byId);
    const restricted = checks.filter((c) => c.level === 'restricted').sort(byId);
    for (let v = 0; v <= this.#maxVersion; v++) {
      const restrictedAt = restricted.map((c) => [c, revisionAt(c, v)] as const);
      const overridden = new Set(restrictedAt.flatMap(([, r]) => r?.overrideCheckIDs ?? []));
      const baselineFns: CheckPodFn[] = [];
      const restrictedFns: CheckPodFn[] = [];
      for (const c of baseline) {
        const r = revisionAt(c, v);
        if (r === undefined) continue;
        baselineFns.push(r.checkPod);
        if (!overridden.has(c.id)) restrictedFns.push(r.checkPod);
      }
      for (const [, r] of restrictedAt) if (r !== undefined) restrictedFns.push(r.checkPod);
      this.#baseline.push(baselineFns);
      this.#restricted.push(restrictedFns);
    }
  }

  /** The results of every check of the level at the version (none for privileged). */
  evaluatePod(lv: LevelVersion, meta: PodMetadata, spec: JsonObject): CheckResult[] {
    if (lv.level === 'privileged') return [];
    const v = lv.version === 'latest' || lv.version > this.#maxVersion ? this.#maxVersion : lv.version;
    const fns = (lv.level === 'baseline' ? this.#baseline : this.#restricted)[v] ?? [];
    return fns.map((fn) => fn(meta, spec));
  }
}

/** The revision of a check in force at v1.<v>, if the check exists then. */
function revisionAt(check: Check, v: number): VersionedCheck | undefined {
  let found: VersionedCheck | undefined;
  for (const r of check.versions) if (r.minimumVersion <= v) found = r;
  return found;
}
