/**
 * List-then-watch over one collection path, re-listing after errors or expired watches, calling
 * `onObject` for every object seen (listed, added or modified) and `onDelete` for deletions.
 * (The WatchList-based informer with a local store comes with the watch cache.)
 */
import { isJsonObject } from '../util/json.js';
import type { JsonObject } from '../util/json.js';
import type { RestClient } from './rest-client.js';

export interface InformerOptions {
  readonly client: RestClient;
  /** Collection path, e.g. `/api/v1/namespaces`; may carry a query (`?fieldSelector=...`). */
  readonly path: string;
  readonly onObject: (obj: JsonObject) => void;
  readonly onDelete?: (obj: JsonObject) => void;
  readonly onError?: (err: unknown) => void;
}

export async function runInformer(o: InformerOptions, signal: AbortSignal): Promise<void> {
  const sep = o.path.includes('?') ? '&' : '?';
  while (!signal.aborted) {
    try {
      const list = await o.client.request('GET', o.path, { signal });
      for (const item of Array.isArray(list['items']) ? list['items'] : []) {
        if (isJsonObject(item)) o.onObject(item);
      }
      const meta = list['metadata'];
      const rv =
        isJsonObject(meta) && typeof meta['resourceVersion'] === 'string' ? meta['resourceVersion'] : '';
      const watchPath = `${o.path}${sep}watch=1&allowWatchBookmarks=true&resourceVersion=${encodeURIComponent(rv)}`;
      for await (const ev of o.client.watch(watchPath, signal)) {
        if (ev.type === 'ERROR') break;
        if (ev.type === 'DELETED') o.onDelete?.(ev.object);
        else if (ev.type !== 'BOOKMARK') o.onObject(ev.object);
      }
    } catch (err) {
      if (signal.aborted) return;
      o.onError?.(err);
      await new Promise((r) => setTimeout(r, 1000).unref());
    }
  }
}

/** `metadata.name` and `metadata.namespace` of a JSON object ('' when absent). */
export function nameOf(obj: JsonObject): { readonly name: string; readonly namespace: string } {
  const meta = obj['metadata'];
  if (!isJsonObject(meta)) return { name: '', namespace: '' };
  return {
    name: typeof meta['name'] === 'string' ? meta['name'] : '',
    namespace: typeof meta['namespace'] === 'string' ? meta['namespace'] : '',
  };
}
