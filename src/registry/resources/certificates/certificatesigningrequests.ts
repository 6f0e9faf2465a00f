/**
 * certificatesigningrequests.certificates.k8s.io (upstream pkg/registry/certificates/certificates):
 * the main resource only changes metadata (spec and status are kept from the stored object), the
 * requester's identity is recorded on create, `/status` writes the certificate and conditions
 * other than Approved/Denied, and `/approval` writes only conditions. Condition timestamps left
 * unset by the writer are filled in by both subresources.
 */
import { certificateSigningRequestInfo } from '../../../apis/certificates/v1/resources.js';
import {
  validateCertificateSigningRequestApprovalUpdate,
  validateCertificateSigningRequestCreate,
  validateCertificateSigningRequestStatusUpdate,
  validateCertificateSigningRequestUpdate,
} from '../../../apis/certificates/v1/validation.js';
import { ensureObj, obj, objArr, str } from '../../../apis/core/v1/access.js';
import type { KubeObject } from '../../../machinery/object.js';
import type { UserInfo } from '../../../machinery/user.js';
import { cloneJson, isJsonObject } from '../../../util/json.js';
import type { JsonObject } from '../../../util/json.js';
import { certificateSigningRequestTable } from '../../printers/certificatesigningrequest.js';
import type { RegistryResource } from '../../resource.js';
import type { RESTStrategy } from '../../strategy.js';
import { defineStrategy } from '../../strategies/base.js';
import { fieldLabelConversion } from '../../../machinery/fields/selector.js';

/** Replaces spec.username/uid/groups/extra with the requesting user's (omitted when empty). */
export function setRequester(csr: KubeObject, user: UserInfo | undefined): void {
  const spec = ensureObj(csr, 'spec');
  for (const k of ['username', 'uid', 'groups', 'extra']) delete spec[k];
  if (user === undefined) return;
  if (user.name !== '') spec['username'] = user.name;
  if (user.uid !== '') spec['uid'] = user.uid;
  if (user.groups.length > 0) spec['groups'] = [...user.groups];
  const extra = Object.entries(user.extra);
  if (extra.length > 0) spec['extra'] = Object.fromEntries(extra.map(([k, v]) => [k, [...v]]));
}

function keep(csr: KubeObject, old: KubeObject, key: string): void {
  const v = old[key];
  if (v === undefined) delete csr[key];
  else csr[key] = cloneJson(v);
}

const conditionsOf = (csr: KubeObject): JsonObject[] => objArr(obj(csr, 'status'), 'conditions');

/** Go's metav1.Time.IsZero for a JSON timestamp. */
function isZeroTime(v: unknown): boolean {
  return typeof v !== 'string' || v === '' || v.startsWith('0001-01-01T00:00:00');
}

/** RFC 3339 with seconds, as a metav1.Time serializes. */
function nowTimestamp(): string {
  return new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Upstream populateConditionTimestamps. */
export function populateConditionTimestamps(csr: KubeObject, old: KubeObject, now = nowTimestamp()): void {
  const oldConditions = conditionsOf(old);
  for (const c of conditionsOf(csr)) {
    if (isZeroTime(c['lastUpdateTime'])) c['lastUpdateTime'] = now;
    if (isZeroTime(c['lastTransitionTime'])) {
      const same = oldConditions.find(
        (o) =>
          str(o, 'type') === str(c, 'type') &&
          str(o, 'status') === str(c, 'status') &&
          !isZeroTime(o['lastTransitionTime']),
      );
      c['lastTransitionTime'] = same?.['lastTransitionTime'] ?? now;
    }
  }
}

/** Upstream preserveConditionInstances: same count of `type` in both, the stored ones win. */
function preserveConditionInstances(csr: KubeObject, old: KubeObject, type: string): void {
  const oldConds = conditionsOf(old).filter((c) => str(c, 'type') === type);
  const conds = obj(csr, 'status')?.['conditions'];
  if (!Array.isArray(conds)) return;
  const newIndices: number[] = [];
  conds.forEach((c, i) => {
    if (isJsonObject(c) && str(c, 'type') === type) newIndices.push(i);
  });
  if (newIndices.length !== oldConds.length) return;
  newIndices.forEach((at, i) => {
    conds[at] = cloneJson(oldConds[i]!);
  });
}

const strategy = defineStrategy({
  namespaced: false,
  nameValidation: 'pathSegment',
  hasStatus: true,
  prepareForCreate(ctx, csr) {
    setRequester(csr, ctx.user);
  },
  prepareForUpdate(_ctx, csr, old) {
    keep(csr, old, 'spec');
    keep(csr, old, 'status');
  },
  validate: (_ctx, csr) => validateCertificateSigningRequestCreate(csr),
  validateUpdate: (_ctx, csr, old) => validateCertificateSigningRequestUpdate(csr, old),
});

/** `/status`: spec is kept; stored Approved/Denied conditions cannot be altered here. */
export const csrStatusStrategy: RESTStrategy = {
  ...strategy,
  prepareForCreate() {},
  prepareForUpdate(_ctx, csr, old) {
    keep(csr, old, 'spec');
    preserveConditionInstances(csr, old, 'Approved');
    preserveConditionInstances(csr, old, 'Denied');
    populateConditionTimestamps(csr, old);
  },
  validateUpdate: (_ctx, csr, old) => validateCertificateSigningRequestStatusUpdate(csr, old),
  warningsOnUpdate: () => [],
};

/** `/approval`: only status.conditions change. */
export const csrApprovalStrategy: RESTStrategy = {
  ...strategy,
  prepareForCreate() {},
  prepareForUpdate(_ctx, csr, old) {
    populateConditionTimestamps(csr, old);
    const conditions = obj(csr, 'status')?.['conditions'];
    keep(csr, old, 'spec');
    const rest: JsonObject = cloneJson(obj(old, 'status') ?? {});
    delete rest['conditions'];
    // Field order as upstream serializes the status: conditions first.
    csr['status'] = Array.isArray(conditions) && conditions.length > 0 ? { conditions, ...rest } : rest;
  },
  validateUpdate: (_ctx, csr, old) => validateCertificateSigningRequestApprovalUpdate(csr, old),
  warningsOnUpdate: () => [],
};

export const certificateSigningRequests: RegistryResource = {
  info: certificateSigningRequestInfo,
  strategy,
  statusStrategy: csrStatusStrategy,
  subresourceStrategies: { approval: csrApprovalStrategy },
  table: certificateSigningRequestTable,
  fieldLabels: fieldLabelConversion(['metadata.name', 'spec.signerName']),
  selectableFields: (csr) => ({ 'spec.signerName': str(obj(csr, 'spec'), 'signerName') ?? '' }),
};
