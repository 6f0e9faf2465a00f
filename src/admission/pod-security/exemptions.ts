/**
 * The configured exemptions (upstream exemptNamespace, exemptUser, exemptRuntimeClass): requests
 * by an exempt user, in an exempt namespace, or pods of an exempt runtime class are not evaluated.
 * An empty name is never exempt.
 */
import type { PodSecurityExemptions } from './configuration.js';

export class Exemptions {
  readonly #usernames: ReadonlySet<string>;
  readonly #namespaces: ReadonlySet<string>;
  readonly #runtimeClasses: ReadonlySet<string>;

  constructor(e: PodSecurityExemptions) {
    this.#usernames = new Set(e.usernames);
    this.#namespaces = new Set(e.namespaces);
    this.#runtimeClasses = new Set(e.runtimeClasses);
  }

  namespace(name: string): boolean {
    return name !== '' && this.#namespaces.has(name);
  }

  user(name: string): boolean {
    return name !== '' && this.#usernames.has(name);
  }

  /** `spec.runtimeClassName` of a pod (anything but a non-empty string is no runtime class). */
  runtimeClass(name: unknown): boolean {
    return typeof name === 'string' && name !== '' && this.#runtimeClasses.has(name);
  }
}
