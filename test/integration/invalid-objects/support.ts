/**
 * The table runner of the invalid-objects suite: each row sends one invalid manifest (or
 * an update of a valid one) to an in-process server and expects kube-apiserver v1.27's exact 422
 * Status — `<Kind> "<name>" is invalid: <aggregate>`, reason Invalid, details {name, group, kind,
 * causes} — or, for warning rows, the created object's exact `Warning` headers.
 *
 * The expected causes are written per row from upstream's validation code; the message is derived
 * from them as upstream's NewInvalid does (errors.ToAggregate: one error alone, several in `[...]`
 * joined by ", " with repeated texts dropped) unless a row spells it out.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer } from '../../support/server.js';
import type { TestResponse, TestServer } from '../../support/server.js';

export type Manifest = Record<string, unknown>;

/** Upstream's CauseType names, as a row writes them. */
export type CauseReason =
  | 'FieldValueNotFound'
  | 'FieldValueRequired'
  | 'FieldValueDuplicate'
  | 'FieldValueInvalid'
  | 'FieldValueNotSupported'
  | 'FieldValueForbidden'
  | 'FieldValueTooLong'
  | 'FieldValueTooMany'
  | 'InternalError'
  | 'FieldValueTypeInvalid';

/** One expected cause: [field, reason, message (the error body: `Invalid value: "x": detail`)]. */
export type Cause = readonly [field: string, reason: CauseReason, message: string];

interface RowBase {
  /** The test's title. */
  readonly name: string;
  /** Objects created first (each must succeed): [collection path, manifest]. */
  readonly setup?: readonly (readonly [string, Manifest])[];
  /** Server flags this row needs (rows with the same flags share a server). */
  readonly server?: ServerFlags;
}

export interface ServerFlags {
  readonly featureGates?: Readonly<Record<string, boolean>>;
  readonly runtimeConfig?: string;
}

export interface InvalidRow extends RowBase {
  /** The collection the object is created in (e.g. `/api/v1/namespaces/t/pods`). */
  readonly path: string;
  /** The manifest POSTed; for updates, the valid object created first. */
  readonly body: Manifest;
  /**
   * An update of the created object: a function returning the new object (PUT, with the created
   * object's resourceVersion), or a JSON merge patch (PATCH).
   */
  readonly update?: ((created: Manifest) => Manifest) | { readonly mergePatch: Manifest };
  /** Send the update to this subresource (e.g. `status`). */
  readonly subresource?: string;
  /** Status details.kind and details.group. */
  readonly kind: string;
  readonly group?: string;
  readonly causes: readonly Cause[];
  /** The exact Status message when it is not the one derived from the causes. */
  readonly message?: string;
  /** Warning headers expected alongside the 422 (rare). */
  readonly warnings?: readonly string[];
}

export interface WarningRow extends RowBase {
  readonly path: string;
  readonly body: Manifest;
  readonly update?: ((created: Manifest) => Manifest) | { readonly mergePatch: Manifest };
  /** The exact Warning header texts of the successful create (or update). */
  readonly warnings: readonly string[];
}

export type Row = InvalidRow | WarningRow;

function isInvalid(row: Row): row is InvalidRow {
  return 'causes' in row;
}

/** Upstream errors.NewInvalid's message for these causes (`kind` is the GroupKind: `Deployment.apps`). */
export function invalidMessage(kind: string, name: string, causes: readonly Cause[]): string {
  const seen: string[] = [];
  for (const [field, , message] of causes) {
    const text = `${field}: ${message}`;
    if (!seen.includes(text)) seen.push(text);
  }
  const agg = seen.length === 1 ? seen[0]! : `[${seen.join(', ')}]`;
  return `${kind} "${name}" is invalid: ${agg}`;
}

function nameOf(m: Manifest): string {
  const meta = m['metadata'] as { name?: string } | undefined;
  return meta?.name ?? '';
}

function flagsKey(f: ServerFlags | undefined): string {
  return JSON.stringify(f ?? {});
}

interface Status {
  kind: string;
  status: string;
  message: string;
  reason: string;
  code: number;
  details?: {
    name?: string;
    group?: string;
    kind?: string;
    causes?: { reason: string; message: string; field: string }[];
  };
}

/** Runs `rows` as one `describe` block, one `it` per row, against servers started for it. */
export function runTable(title: string, rows: readonly Row[], options: { namespace?: string } = {}): void {
  const namespace = options.namespace ?? 'invalid';
  describe(title, () => {
    const servers = new Map<string, TestServer>();
    before(async () => {
      for (const row of rows) {
        const key = flagsKey(row.server);
        if (servers.has(key)) continue;
        const s = await startTestServer({
          controllers: false,
          storage: 'memory',
          ...(row.server?.featureGates !== undefined ? { featureGates: row.server.featureGates } : {}),
          ...(row.server?.runtimeConfig !== undefined ? { runtimeConfig: row.server.runtimeConfig } : {}),
        });
        servers.set(key, s);
        const ns = await s.request('POST', '/api/v1/namespaces', {
          body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } },
        });
        assert.equal(ns.status, 201, ns.text);
      }
    });
    after(async () => {
      for (const s of servers.values()) await s.stop();
    });

    for (const row of rows) {
      it(row.name, async () => {
        const s = servers.get(flagsKey(row.server))!;
        for (const [path, body] of row.setup ?? []) {
          const r = await s.request('POST', path, { body });
          assert.equal(r.status, 201, `setup ${path}: ${r.text}`);
        }
        const r = await send(s, row);
        if (isInvalid(row)) assertInvalid(row, r);
        else {
          assert.ok(r.status === 201 || r.status === 200, r.text);
          assert.deepEqual(r.warnings, row.warnings);
        }
      });
    }
  });
}

async function send(s: TestServer, row: Row): Promise<TestResponse> {
  if (row.update === undefined) return s.request('POST', row.path, { body: row.body });
  const created = await s.request('POST', row.path, { body: row.body });
  assert.equal(created.status, 201, `creating the object to update: ${created.text}`);
  const obj = created.json<Manifest>();
  const sub = 'subresource' in row && row.subresource !== undefined ? `/${row.subresource}` : '';
  const url = `${row.path}/${nameOf(obj)}${sub}`;
  if (typeof row.update === 'function') {
    return s.request('PUT', url, { body: row.update(structuredClone(obj)) });
  }
  return s.request('PATCH', url, {
    body: row.update.mergePatch,
    contentType: 'application/merge-patch+json',
  });
}

function assertInvalid(row: InvalidRow, r: TestResponse): void {
  assert.equal(r.status, 422, r.text);
  const got = r.json<Status>();
  const name = nameOf(row.body);
  const line = (c: { field: string; reason: string; message: string }): string =>
    `${c.field} | ${c.reason} | ${c.message}`;
  // Causes first (the clearest diff), then the rest of the Status.
  assert.deepEqual(
    (got.details?.causes ?? []).map(line),
    row.causes.map(([field, reason, message]) => line({ field, reason, message })),
  );
  assert.deepEqual(
    {
      reason: got.reason,
      message: got.message,
      name: got.details?.name,
      group: got.details?.group ?? '',
      kind: got.details?.kind,
    },
    {
      reason: 'Invalid',
      message:
        row.message ?? invalidMessage(row.group ? `${row.kind}.${row.group}` : row.kind, name, row.causes),
      name,
      group: row.group ?? '',
      kind: row.kind,
    },
  );
  if (row.warnings !== undefined) assert.deepEqual(r.warnings, row.warnings);
}

/** Clones `base` and applies `change` to the clone (for rows that vary one valid manifest). */
export function vary<T extends Manifest>(base: T, change: (m: T) => void): T {
  const m = structuredClone(base);
  change(m);
  return m;
}
