/**
 * `kubectl get validatingadmissionpolicies` (NAME, VALIDATIONS, PARAMKIND, AGE) and
 * `validatingadmissionpolicybindings` (NAME, POLICYNAME, PARAMREF, AGE), as v1.27's printers.
 */
import type { TableConvertor } from '../../machinery/table.js';
import { translateTimestampSince } from './age.js';
import { ageColumn, column, nameColumn } from './columns.js';
import { arrayAt, objectAt, stringAt } from './read.js';

export const validatingAdmissionPolicyTable: TableConvertor = {
  columns: [
    nameColumn,
    column('Validations', 'integer', 'How many validation rules the policy defines.'),
    column('ParamKind', 'string', 'The apiVersion/kind of the resources that parameterize the policy.'),
    ageColumn,
  ],
  cells(obj, now) {
    const paramKind = objectAt(obj, 'spec', 'paramKind');
    return [
      stringAt(obj, 'metadata', 'name'),
      arrayAt(obj, 'spec', 'validations').length,
      paramKind === undefined
        ? '<unset>'
        : `${stringAt(paramKind, 'apiVersion')}/${stringAt(paramKind, 'kind')}`,
      translateTimestampSince(obj.metadata.creationTimestamp, now),
    ];
  },
};

/** The parameter resource a binding names: `namespace/name`, or just the name without a namespace. */
export function formatParamRef(paramRef: unknown): string {
  if (paramRef === undefined) return '<unset>';
  const namespace = stringAt(paramRef, 'namespace');
  const name = stringAt(paramRef, 'name');
  return namespace === '' ? name : `${namespace}/${name}`;
}

export const validatingAdmissionPolicyBindingTable: TableConvertor = {
  columns: [
    nameColumn,
    column('PolicyName', 'string', 'The policy this binding applies.'),
    column('ParamRef', 'string', 'The resource that supplies the parameters of the policy.'),
    ageColumn,
  ],
  cells(obj, now) {
    return [
      stringAt(obj, 'metadata', 'name'),
      stringAt(obj, 'spec', 'policyName'),
      formatParamRef(objectAt(obj, 'spec', 'paramRef')),
      translateTimestampSince(obj.metadata.creationTimestamp, now),
    ];
  },
};
