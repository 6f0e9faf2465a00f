/**
 * CSINode validation as pkg/apis/storage/validation (release-1.27), on storage/v1 JSON; the
 * registry always allows the longer (256) node IDs. metadata (node names: DNS subdomains) is
 * validated by the generic store first.
 */
import { FieldPath, fieldErrors, goQuote } from '../../../../machinery/field/errors.js';
import type { FieldError } from '../../../../machinery/field/errors.js';
import type { KubeObject } from '../../../../machinery/object.js';
import { invalidRendered } from '../../../../machinery/validation/gosyntax.js';
import { fieldImmutableErrorMsg } from '../../../../machinery/validation/objectmeta.js';
import type { JsonObject } from '../../../../util/json.js';
import { jsonEqual } from '../../../../util/json.js';
import { indexedObjs, num, obj, objArr, str } from '../../../core/v1/access.js';
import { validateQualifiedName } from '../../../core/v1/validation/common.js';
import { byteLen, goPointer, goSlice, validateCSIDriverName } from './common.js';

const csiNodeIDLongerMaxLength = 256;

function validateDriver(driver: JsonObject, names: Set<string>, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(driver, 'name') ?? '';
  errs.push(...validateCSIDriverName(name, path.child('name')));
  const nodeID = str(driver, 'nodeID') ?? '';
  if (nodeID.length === 0) errs.push(fieldErrors.required(path.child('nodeID'), ''));
  if (byteLen(nodeID) > csiNodeIDLongerMaxLength) {
    errs.push(
      fieldErrors.invalid(
        path.child('nodeID'),
        nodeID,
        `must be ${csiNodeIDLongerMaxLength} characters or less`,
      ),
    );
  }
  const count = num(obj(driver, 'allocatable'), 'count');
  if (count !== undefined && count < 0) {
    errs.push(
      fieldErrors.invalid(path.child('allocatable', 'count'), count, 'must be greater than or equal to 0'),
    );
  }
  if (names.has(name)) errs.push(fieldErrors.duplicate(path.child('name'), name));
  names.add(name);
  const keys = new Set<string>();
  const topologyKeys = driver['topologyKeys'];
  for (const k of Array.isArray(topologyKeys) ? topologyKeys : []) {
    const key = typeof k === 'string' ? k : '';
    if (key.length === 0) errs.push(fieldErrors.required(path, ''));
    if (keys.has(key)) errs.push(fieldErrors.duplicate(path, key));
    keys.add(key);
    errs.push(...validateQualifiedName(key, path));
  }
  return errs;
}

/** Upstream ValidateCSINode, after ValidateObjectMeta. */
export function validateCSINode(node: KubeObject): FieldError[] {
  const path = FieldPath.root('spec', 'drivers');
  const names = new Set<string>();
  const errs: FieldError[] = [];
  for (const [i, driver] of indexedObjs(obj(node, 'spec'), 'drivers')) {
    errs.push(...validateDriver(driver, names, path.index(i)));
  }
  return errs;
}

/** Go `%#v` of a storage.CSINodeDriver. */
function goCSINodeDriver(d: JsonObject): string {
  return (
    `storage.CSINodeDriver{Name:${goQuote(str(d, 'name') ?? '')}, NodeID:${goQuote(str(d, 'nodeID') ?? '')}, ` +
    `TopologyKeys:${goSlice('string', d['topologyKeys'])}, ` +
    `Allocatable:${goPointer('storage.VolumeNodeResources', d['allocatable'])}}`
  );
}

/** Semantic equality of two drivers: absent and empty topology keys are the same. */
function sameDriver(a: JsonObject, b: JsonObject): boolean {
  const norm = (d: JsonObject): JsonObject => {
    const c: JsonObject = { ...d };
    const keys = c['topologyKeys'];
    if (Array.isArray(keys) && keys.length === 0) delete c['topologyKeys'];
    return c;
  };
  return jsonEqual(norm(a), norm(b));
}

/**
 * The registry's update validation: ValidateCSINode, then upstream ValidateCSINodeUpdate, which
 * validates the new object again (so its errors appear twice) and forbids changing a driver that
 * keeps its name (reported on the path `CSINodeDriver`).
 */
export function validateCSINodeUpdate(node: KubeObject, old: KubeObject): FieldError[] {
  const errs = [...validateCSINode(node), ...validateCSINode(node)];
  const drivers = objArr(obj(node, 'spec'), 'drivers');
  for (const oldDriver of objArr(obj(old, 'spec'), 'drivers')) {
    for (const driver of drivers) {
      if ((str(oldDriver, 'name') ?? '') !== (str(driver, 'name') ?? '')) continue;
      if (!sameDriver(oldDriver, driver)) {
        errs.push(
          invalidRendered(FieldPath.root('CSINodeDriver'), goCSINodeDriver(driver), fieldImmutableErrorMsg),
        );
      }
    }
  }
  return errs;
}
