/**
 * The CEL environment of admission expressions (ValidatingAdmissionPolicy validations, messages,
 * audit annotations and match conditions; webhook match conditions), as apiserver v0.27
 * pkg/admission/plugin/cel/compile.go: `object`, `oldObject` (dyn) and `request` (the
 * AdmissionRequest object type) always; `params` (dyn) when the policy has a paramKind;
 * `authorizer` and `authorizer.requestResource` when the expression may check authorization.
 */
import { AUTHORIZER_TYPE, RESOURCE_CHECK_TYPE } from '../checker/k8s-library.js';
import {
  BoolDeclType,
  DynDeclType,
  NO_MAX_LENGTH,
  StringDeclType,
  newListType,
  newMapType,
  newObjectType,
  simpleType,
  type DeclField,
  type DeclType,
} from '../schema/decl-type.js';

export const OBJECT_VAR = 'object';
export const OLD_OBJECT_VAR = 'oldObject';
export const PARAMS_VAR = 'params';
export const REQUEST_VAR = 'request';
export const AUTHORIZER_VAR = 'authorizer';
export const REQUEST_RESOURCE_AUTHORIZER_VAR = 'authorizer.requestResource';

/** Which optional variables an expression is compiled with (OptionalVariableDeclarations). */
export interface OptionalVariables {
  readonly hasParams: boolean;
  readonly hasAuthorizer: boolean;
}

function fields(...list: readonly (readonly [string, DeclType, boolean])[]): ReadonlyMap<string, DeclField> {
  return new Map(list.map(([name, type, required]) => [name, { name, type, required }]));
}

const gvkType = newObjectType(
  'kubernetes.GroupVersionKind',
  fields(['group', StringDeclType, true], ['version', StringDeclType, true], ['kind', StringDeclType, true]),
);
const gvrType = newObjectType(
  'kubernetes.GroupVersionResource',
  fields(
    ['group', StringDeclType, true],
    ['version', StringDeclType, true],
    ['resource', StringDeclType, true],
  ),
);
const stringList = newListType(StringDeclType, NO_MAX_LENGTH);
const userInfoType = newObjectType(
  'kubernetes.UserInfo',
  fields(
    ['username', StringDeclType, false],
    ['uid', StringDeclType, false],
    ['groups', stringList, false],
    ['extra', newMapType(StringDeclType, stringList, NO_MAX_LENGTH), false],
  ),
);

/** BuildRequestType: AdmissionRequest without uid, object and oldObject. */
export const requestDeclType: DeclType = newObjectType(
  'kubernetes.AdmissionRequest',
  fields(
    ['kind', gvkType, true],
    ['resource', gvrType, true],
    ['subResource', StringDeclType, false],
    ['requestKind', gvkType, true],
    ['requestResource', gvrType, true],
    ['requestSubResource', StringDeclType, false],
    ['name', StringDeclType, true],
    ['namespace', StringDeclType, false],
    ['operation', StringDeclType, true],
    ['userInfo', userInfoType, true],
    ['dryRun', BoolDeclType, false],
    ['options', DynDeclType, false],
  ),
);

const authorizerDeclType = simpleType('kubernetes.authorization.Authorizer', AUTHORIZER_TYPE, 1n);
const resourceCheckDeclType = simpleType('kubernetes.authorization.ResourceCheck', RESOURCE_CHECK_TYPE, 1n);

/** The declared variables for one combination of optional variables. */
export function admissionVariables(
  options: OptionalVariables,
  typed: { readonly object?: DeclType; readonly params?: DeclType } = {},
): Readonly<Record<string, DeclType>> {
  const vars: Record<string, DeclType> = {
    [OBJECT_VAR]: typed.object ?? DynDeclType,
    [OLD_OBJECT_VAR]: typed.object ?? DynDeclType,
    [REQUEST_VAR]: requestDeclType,
  };
  if (options.hasParams) vars[PARAMS_VAR] = typed.params ?? DynDeclType;
  if (options.hasAuthorizer) {
    vars[AUTHORIZER_VAR] = authorizerDeclType;
    vars[REQUEST_RESOURCE_AUTHORIZER_VAR] = resourceCheckDeclType;
  }
  return vars;
}
