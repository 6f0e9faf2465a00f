/**
 * One limit of EventRateLimit (upstream limitenforcer.go, v1.27): a token bucket per key, the key
 * taken from the request by the limit's type: none for Server (one shared bucket), the namespace,
 * the user's name, or the event's source and involved object (component, host, kind, namespace,
 * name, uid and apiVersion, concatenated). Buckets of the keyed types live in an LRU cache; an
 * evicted key comes back with a full bucket.
 */
import type { JsonValue } from '../../util/json.js';
import { isJsonObject } from '../../util/json.js';
import type { AdmissionAttributes } from '../attributes.js';
import { defaultCacheSize } from './configuration.js';
import type { Limit, LimitType } from './configuration.js';
import { LruCache } from './lru-cache.js';
import { TokenBucket } from './token-bucket.js';

function text(v: JsonValue | undefined, key: string): string {
  const s = isJsonObject(v) ? v[key] : undefined;
  return typeof s === 'string' ? s : '';
}

function sourceAndObjectKey(a: AdmissionAttributes): string {
  const event = a.object;
  if (event === undefined) return '';
  const source = event['source'];
  const involved = event['involvedObject'];
  return [
    text(source, 'component'),
    text(source, 'host'),
    text(involved, 'kind'),
    text(involved, 'namespace'),
    text(involved, 'name'),
    text(involved, 'uid'),
    text(involved, 'apiVersion'),
  ].join('');
}

const keyFunctions: Readonly<Record<LimitType, (a: AdmissionAttributes) => string>> = {
  Server: () => '',
  Namespace: (a) => a.namespace,
  User: (a) => a.user.name,
  SourceAndObject: sourceAndObjectKey,
};

export class LimitEnforcer {
  readonly #type: LimitType;
  readonly #limit: Limit;
  readonly #server: TokenBucket | undefined;
  readonly #cache: LruCache<string, TokenBucket>;

  constructor(type: LimitType, limit: Limit) {
    this.#type = type;
    this.#limit = limit;
    this.#server = type === 'Server' ? new TokenBucket(limit.qps, limit.burst) : undefined;
    this.#cache = new LruCache(limit.cacheSize === 0 ? defaultCacheSize : limit.cacheSize);
  }

  /** Takes a token for the request's key: undefined when there was one, else upstream's reason. */
  accept(a: AdmissionAttributes, nowMs: number): string | undefined {
    const key = keyFunctions[this.#type](a);
    if (!this.#bucket(key).tryAccept(nowMs)) return `limit reached on type ${this.#type} for key ${key}`;
    return undefined;
  }

  #bucket(key: string): TokenBucket {
    if (this.#server !== undefined) return this.#server;
    let bucket = this.#cache.get(key);
    if (bucket === undefined) {
      bucket = new TokenBucket(this.#limit.qps, this.#limit.burst);
      this.#cache.add(key, bucket);
    }
    return bucket;
  }
}
