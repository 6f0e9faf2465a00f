/**
 * `metadata.managedFields` both ways, as apimachinery's managedfields internals: each entry's
 * manager identifier (the entry without fields and time, and without apiVersion for Apply, as Go's
 * encoding/json writes it), its field set and time; the checks a decoded entry must pass; entries
 * encoded sorted (Apply before Update, then by time, manager, apiVersion, subresource).
 */
import { FieldSet } from '../fieldpath/set.js';
import { goJsonString } from '../fieldpath/value.js';

export type Operation = 'Apply' | 'Update';

export interface ManagedFieldsEntry {
  readonly manager?: string;
  readonly operation?: string;
  readonly apiVersion?: string;
  readonly time?: string;
  readonly fieldsType?: string;
  readonly fieldsV1?: unknown;
  readonly subresource?: string;
}

/** A manager's fields at an API version; `applied` for an Apply manager. */
export interface VersionedSet {
  readonly set: FieldSet;
  readonly apiVersion: string;
  readonly applied: boolean;
}

/** Managers by identifier, with the time each last changed something. */
export interface Managed {
  readonly fields: Map<string, VersionedSet>;
  readonly times: Map<string, string | undefined>;
}

export function emptyManaged(): Managed {
  return { fields: new Map(), times: new Map() };
}

/** The identifier fields of a manager (what its identifier JSON holds). */
export interface ManagerInfo {
  readonly manager?: string;
  readonly operation?: string;
  readonly apiVersion?: string;
  readonly subresource?: string;
}

/** apimachinery's BuildManagerIdentifier: the entry's identity as Go marshals it. */
export function managerIdentifier(e: ManagerInfo): string {
  const parts: string[] = [];
  if (e.manager !== undefined && e.manager !== '') parts.push(`"manager":${goJsonString(e.manager)}`);
  if (e.operation !== undefined && e.operation !== '') parts.push(`"operation":${goJsonString(e.operation)}`);
  if (e.operation !== 'Apply' && e.apiVersion !== undefined && e.apiVersion !== '') {
    parts.push(`"apiVersion":${goJsonString(e.apiVersion)}`);
  }
  if (e.subresource !== undefined && e.subresource !== '')
    parts.push(`"subresource":${goJsonString(e.subresource)}`);
  return `{${parts.join(',')}}`;
}

const identifiers = new Map<string, ManagerInfo>();

/** An identifier's fields (a few distinct identifiers are parsed again and again: kept). */
export function parseIdentifier(id: string): ManagerInfo {
  let v = identifiers.get(id);
  if (v === undefined) {
    v = JSON.parse(id) as ManagerInfo;
    if (identifiers.size > 10_000) identifiers.clear();
    identifiers.set(id, v);
  }
  return v;
}

/** Thrown when managedFields cannot be decoded. */
export class ManagedFieldsError extends Error {}

/** apimachinery's DecodeManagedFields. */
export function decodeManagedFields(entries: readonly ManagedFieldsEntry[]): Managed {
  const managed = emptyManaged();
  entries.forEach((e, i) => {
    if (e.operation !== 'Apply' && e.operation !== 'Update') {
      throw new ManagedFieldsError('operation must be `Apply` or `Update`');
    }
    if (e.apiVersion === undefined || e.apiVersion === '')
      throw new ManagedFieldsError('apiVersion must not be empty');
    if (e.fieldsType === undefined || e.fieldsType === '') {
      throw new ManagedFieldsError(`missing fieldsType in managed fields entry ${i}`);
    }
    if (e.fieldsType !== 'FieldsV1') {
      throw new ManagedFieldsError(
        `invalid fieldsType ${goJsonString(e.fieldsType)} in managed fields entry ${i}`,
      );
    }
    const id = managerIdentifier(e);
    let set: FieldSet;
    try {
      set =
        e.fieldsV1 === undefined || e.fieldsV1 === null ? new FieldSet() : FieldSet.fromFieldsV1(e.fieldsV1);
    } catch (err) {
      throw new ManagedFieldsError(
        `error decoding versioned set from ${JSON.stringify(e)}: error decoding set: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
    managed.fields.set(id, { set, apiVersion: e.apiVersion, applied: e.operation === 'Apply' });
    managed.times.set(id, e.time);
  });
  return managed;
}

const seconds = (t: string | undefined): number => (t === undefined ? 0 : Math.floor(Date.parse(t) / 1000));
const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** apimachinery's encodeManagedFields (undefined when there are no managers). */
export function encodeManagedFields(managed: Managed): ManagedFieldsEntry[] | undefined {
  if (managed.fields.size === 0) return undefined;
  const out: ManagedFieldsEntry[] = [];
  for (const [id, vs] of managed.fields) {
    const info = parseIdentifier(id);
    const time = managed.times.get(id);
    // Keys assigned in the order entries are written (Go's field order).
    const e: { -readonly [K in keyof ManagedFieldsEntry]: ManagedFieldsEntry[K] } = {};
    if (info.manager !== undefined) e.manager = info.manager;
    e.operation = vs.applied ? 'Apply' : (info.operation ?? '');
    e.apiVersion = vs.apiVersion;
    if (time !== undefined) e.time = time;
    e.fieldsType = 'FieldsV1';
    e.fieldsV1 = vs.set.toFieldsV1();
    if (info.subresource !== undefined) e.subresource = info.subresource;
    out.push(e);
  }
  if (out.length < 2) return out;
  const keyed = out.map((e) => ({ e, t: seconds(e.time) }));
  keyed.sort(
    ({ e: p, t: pt }, { e: q, t: qt }) =>
      cmp(p.operation ?? '', q.operation ?? '') ||
      pt - qt ||
      cmp(p.manager ?? '', q.manager ?? '') ||
      cmp(p.apiVersion ?? '', q.apiVersion ?? '') ||
      cmp(p.subresource ?? '', q.subresource ?? ''),
  );
  return keyed.map((k) => k.e);
}
