/**
 * RFC 6902 JSON patch (`application/json-patch+json`) with the behaviour of evanphx/json-patch v4
 * as vendored by kube-apiserver v1.27: negative array indices, `replace` of a missing object key
 * adds it, copies limited to 3 MiB in total, and its error texts.
 *
 * Copy-on-write: containers along a written path are shallow-copied once; untouched subtrees are
 * shared with the input, which is never mutated.
 */
import type { JsonValue } from '../../util/json.js';
import { cloneJson, isJsonObject, jsonEqual } from '../../util/json.js';
import { PatchError } from './errors.js';
import { addTo, existingIndex, fail, getChild, MISSING, PatchTarget, removeFrom } from './json-pointer.js';

/** Upstream's maxJSONPatchOperations. */
export const MAX_JSON_PATCH_OPERATIONS = 10000;
/** Upstream's default JSONPatchMaxCopyBytes (jsonpatch.AccumulatedCopySizeLimit). */
export const MAX_JSON_PATCH_COPY_BYTES = 3 * 1024 * 1024;

type Operation = Readonly<Record<string, JsonValue>>;

function jsonKind(v: unknown): string {
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

/**
 * jsonpatch.DecodePatch on an already parsed body: an array of objects (null decodes as no
 * operations). Throws a bad-request PatchError, or request-entity-too-large past 10000 operations.
 */
export function decodeJsonPatch(patch: unknown): readonly Operation[] {
  if (patch === null) return [];
  if (!Array.isArray(patch)) {
    throw new PatchError(
      'bad-request',
      `json: cannot unmarshal ${jsonKind(patch)} into Go value of type jsonpatch.Patch`,
    );
  }
  const ops: Operation[] = [];
  for (const op of patch as unknown[]) {
    if (op === null) ops.push({});
    else if (isJsonObject(op)) ops.push(op);
    else {
      throw new PatchError(
        'bad-request',
        `json: cannot unmarshal ${jsonKind(op)} into Go value of type jsonpatch.Operation`,
      );
    }
  }
  if (ops.length > MAX_JSON_PATCH_OPERATIONS) {
    throw new PatchError(
      'request-entity-too-large',
      `The allowed maximum operations in a JSON patch is ${MAX_JSON_PATCH_OPERATIONS}, got ${ops.length}`,
    );
  }
  return ops;
}

/** strconv.Atoi: optional sign and decimal digits only. */
function wrap(prefix: string, e: unknown): PatchError {
  return fail(`${prefix}: ${e instanceof Error ? e.message : String(e)}`);
}

/** An operation's string member (path/from); `null` counts as absent. */
function member(op: Operation, name: 'path' | 'from'): { value?: string; error?: string } {
  const v = op[name];
  if (v === undefined || v === null) {
    return {
      error:
        name === 'path'
          ? `operation missing path field${MISSING}`
          : `operation, missing from field${MISSING}`,
    };
  }
  if (typeof v !== 'string')
    return { error: `json: cannot unmarshal ${jsonKind(v)} into Go value of type string` };
  return { value: v };
}

function opValue(op: Operation): JsonValue {
  return op.value ?? null;
}

/** Encoded size of a copied value as Go's encoder writes it (HTML characters escaped). */
function encodedSize(v: JsonValue): number {
  const s = JSON.stringify(v);
  return Buffer.byteLength(s) + 5 * (s.match(/[<>&\u2028\u2029]/g)?.length ?? 0);
}

interface ApplyState {
  copied: number;
}

function applyOne(t: PatchTarget, op: Operation, state: ApplyState): void {
  const kind = typeof op.op === 'string' ? op.op : 'unknown';
  switch (kind) {
    case 'add': {
      const p = member(op, 'path');
      if (p.value === undefined) throw fail(`add operation failed to decode path${MISSING}`);
      const f = t.find(p.value, true);
      if (!f) throw fail(`add operation does not apply: doc is missing path: "${p.value}"${MISSING}`);
      try {
        addTo(f.con, f.key, opValue(op));
      } catch (e) {
        throw wrap(`error in add for path: '${p.value}'`, e);
      }
      return;
    }
    case 'remove': {
      const p = member(op, 'path');
      if (p.value === undefined) throw fail(`remove operation failed to decode path${MISSING}`);
      const f = t.find(p.value, true);
      if (!f) throw fail(`remove operation does not apply: doc is missing path: "${p.value}"${MISSING}`);
      try {
        removeFrom(f.con, f.key);
      } catch (e) {
        throw wrap(`error in remove for path: '${p.value}'`, e);
      }
      return;
    }
    case 'replace': {
      const p = member(op, 'path');
      if (p.value === undefined) throw fail(`replace operation failed to decode path: ${p.error ?? ''}`);
      const val = opValue(op);
      if (p.value === '') {
        // Upstream wraps a nil error here, so a non-container value is silently ignored.
        if (val !== null && typeof val === 'object') t.root = val;
        return;
      }
      const f = t.find(p.value, true);
      if (!f) throw fail(`replace operation does not apply: doc is missing path: ${p.value}${MISSING}`);
      if (Array.isArray(f.con)) {
        let idx: number;
        try {
          idx = existingIndex(f.con, f.key);
        } catch {
          throw fail(`replace operation does not apply: doc is missing key: ${p.value}${MISSING}`);
        }
        f.con[idx] = val;
      } else {
        f.con[f.key] = val;
      }
      return;
    }
    case 'move': {
      const from = member(op, 'from');
      if (from.value === undefined) throw fail(`move operation failed to decode from: ${from.error ?? ''}`);
      const src = t.find(from.value, true);
      if (!src)
        throw fail(`move operation does not apply: doc is missing from path: ${from.value}${MISSING}`);
      let val: JsonValue | undefined;
      try {
        val = getChild(src.con, src.key);
        removeFrom(src.con, src.key);
      } catch (e) {
        throw wrap(`error in move for path: '${src.key}'`, e);
      }
      const p = member(op, 'path');
      if (p.value === undefined) throw fail(`move operation failed to decode path: ${p.error ?? ''}`);
      const dst = t.find(p.value, true);
      if (!dst)
        throw fail(`move operation does not apply: doc is missing destination path: ${p.value}${MISSING}`);
      try {
        addTo(dst.con, dst.key, val ?? null);
      } catch (e) {
        throw wrap(`error in move for path: '${p.value}'`, e);
      }
      return;
    }
    case 'test': {
      const p = member(op, 'path');
      if (p.value === undefined) throw fail(`test operation failed to decode path: ${p.error ?? ''}`);
      const failed = fail(`testing value ${p.value} failed: test failed`);
      if (p.value === '') {
        if (!jsonEqual(t.root, opValue(op))) throw failed;
        return;
      }
      const f = t.find(p.value, false);
      if (!f) throw fail(`test operation does not apply: is missing path: ${p.value}${MISSING}`);
      let val: JsonValue | undefined;
      try {
        val = getChild(f.con, f.key);
      } catch (e) {
        throw wrap(`error in test for path: '${p.value}'`, e);
      }
      if (val === undefined) {
        if (opValue(op) !== null) throw failed;
        return;
      }
      if (op.value === undefined || !jsonEqual(val, op.value)) throw failed;
      return;
    }
    case 'copy': {
      const from = member(op, 'from');
      if (from.value === undefined) throw fail(`copy operation failed to decode from: ${from.error ?? ''}`);
      const src = t.find(from.value, false);
      if (!src)
        throw fail(`copy operation does not apply: doc is missing from path: ${from.value}${MISSING}`);
      let val: JsonValue | undefined;
      try {
        val = getChild(src.con, src.key);
      } catch (e) {
        throw wrap(`error in copy for from: '${from.value}'`, e);
      }
      const p = member(op, 'path');
      if (p.value === undefined) throw fail(`copy operation failed to decode path${MISSING}`);
      const dst = t.find(p.value, true);
      if (!dst)
        throw fail(`copy operation does not apply: doc is missing destination path: ${p.value}${MISSING}`);
      if (val !== undefined) {
        state.copied += encodedSize(val);
        if (state.copied > MAX_JSON_PATCH_COPY_BYTES) {
          throw fail(
            `Unable to complete the copy, the accumulated size increase of copy is ${state.copied}, exceeding the limit ${MAX_JSON_PATCH_COPY_BYTES}`,
          );
        }
      }
      try {
        // A fresh copy: the source may be a container this apply already owns and writes in place.
        addTo(dst.con, dst.key, val === undefined ? null : cloneJson(val));
      } catch (e) {
        throw wrap('error while adding value during copy', e);
      }
      return;
    }
    default:
      throw fail(`Unexpected kind: ${kind}`);
  }
}

/**
 * Applies an RFC 6902 patch (the parsed request body) to `doc`, returning a new document.
 * Throws PatchError: bad-request (undecodable patch), request-entity-too-large (over 10000
 * operations) or unprocessable (an operation failed; upstream answers 422).
 */
export function applyJsonPatch(doc: JsonValue, patch: unknown): JsonValue {
  const ops = decodeJsonPatch(patch);
  if (doc === null || typeof doc !== 'object') {
    throw fail(`json: cannot unmarshal ${jsonKind(doc)} into Go value of type jsonpatch.partialDoc`);
  }
  const target = new PatchTarget(doc);
  const state: ApplyState = { copied: 0 };
  for (const op of ops) applyOne(target, op, state);
  return target.root;
}
