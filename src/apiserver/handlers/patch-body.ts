/** Reading a PATCH body: a supported patch media type, JSON, bounded nesting. */
import { apiErrors } from '../../machinery/errors.js';
import type { StatusError } from '../../machinery/errors.js';
import type { FieldValidation } from '../decode-request.js';
import { goJsonErrorText, readBody } from '../body.js';
import type { ServerRequest } from '../body.js';
import { exceedsJsonDepth } from '../json-depth.js';
import { bodyMediaType } from '../negotiate.js';
import { isMap, isScalar, LineCounter, parseDocument, visit } from 'yaml';
import { invalidMapKey } from '../yaml-keys.js';

export const applyPatchType = 'application/apply-patch+yaml';

export const patchTypes = [
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
  applyPatchType,
];

/** The patch media type of the request, or 415 UnsupportedMediaType. */
export function patchMediaType(req: ServerRequest): string {
  const media = bodyMediaType(req.headers['content-type']);
  if (!patchTypes.includes(media)) throw apiErrors.unsupportedMediaType(media, patchTypes);
  return media;
}

/**
 * Reads and parses the patch document (400 BadRequest when it is not JSON or nests too deeply),
 * worded as upstream's patcher words it: json-patch and merge-patch bodies checked with field
 * validation (Warn, the default, or Strict) say `error decoding patch: <Go's error>`; with Ignore a
 * json-patch says Go's error alone and a merge patch `Invalid JSON Patch`; a strategic merge patch
 * always says Go's error alone.
 */
export async function readPatch(
  req: ServerRequest,
  media: string,
  fieldValidation: FieldValidation,
  warnings?: string[],
): Promise<unknown> {
  const bytes = await readBody(req);
  const fail = (err?: unknown): StatusError => {
    const message = goJsonErrorText(bytes, err);
    if (media === 'application/strategic-merge-patch+json') return apiErrors.badRequest(message);
    if (fieldValidation !== 'Ignore') return apiErrors.badRequest(`error decoding patch: ${message}`);
    if (media === 'application/merge-patch+json') return apiErrors.badRequest('Invalid JSON Patch');
    return apiErrors.badRequest(message);
  };
  let patch: unknown;
  if (media === applyPatchType) {
    // sigs.k8s.io/yaml: YAML into JSON values, YAML 1.1 as go-yaml v2 reads it. JSON (what kubectl
    // and client-go send) is YAML that reads the same: parsed as JSON, much faster.
    const text = bytes.toString('utf8');
    let parsed = false;
    if (/^\s*\{/.test(text)) {
      try {
        patch = JSON.parse(text) as unknown;
        parsed = true;
      } catch {
        // Not JSON after all: read it as YAML.
      }
    }
    if (!parsed) {
      const lines = new LineCounter();
      const doc = parseDocument(text, { version: '1.1', uniqueKeys: false, lineCounter: lines });
      const first = doc.errors[0];
      if (first !== undefined) throw apiErrors.badRequest(`error decoding YAML: ${first.message}`);
      const badKey = invalidMapKey(doc);
      if (badKey !== undefined) {
        throw apiErrors.badRequest(`error decoding YAML: error converting YAML to JSON: ${badKey}`);
      }
      try {
        patch = doc.toJS({ maxAliasCount: 100 }) as unknown;
      } catch (err) {
        throw apiErrors.badRequest(
          `error decoding YAML: ${err instanceof Error ? err.message : String(err)}`,
        );
      }
      // go-yaml's strict unmarshal (yaml.UnmarshalStrict in the apply patcher) refuses repeated keys.
      if (fieldValidation !== 'Ignore') {
        const repeated = repeatedKeys(doc, lines);
        if (repeated.length > 0) {
          const err = `error converting YAML to JSON: yaml: unmarshal errors:\n  ${repeated.join('\n  ')}`;
          if (fieldValidation === 'Strict') throw apiErrors.badRequest(`error strict decoding YAML: ${err}`);
          warnings?.push(err);
        }
      }
    }
    if (exceedsJsonDepth(patch)) throw apiErrors.badRequest('error decoding YAML: exceeded max depth');
    return patch ?? {};
  }
  try {
    patch = JSON.parse(bytes.toString('utf8'));
  } catch (err) {
    throw fail(err);
  }
  if (exceedsJsonDepth(patch)) throw fail();
  return patch;
}

/** `line N: key "k" already set in map` for each key repeated in a mapping (go-yaml v2's text). */
function repeatedKeys(doc: ReturnType<typeof parseDocument>, lines: LineCounter): string[] {
  const out: string[] = [];
  visit(doc, {
    Map(_key, map) {
      if (!isMap(map)) return;
      const seen = new Set<string>();
      for (const pair of map.items) {
        const key = pair.key;
        const name = isScalar(key) ? String(key.value) : JSON.stringify(key);
        if (seen.has(name)) {
          const at = isScalar(key) && key.range !== undefined && key.range !== null ? key.range[0] : 0;
          out.push(`line ${lines.linePos(at).line}: key ${JSON.stringify(name)} already set in map`);
        }
        seen.add(name);
      }
    },
  });
  return out;
}
