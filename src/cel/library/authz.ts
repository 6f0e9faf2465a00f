// The Kubernetes authorizer library (apiserver v0.27.16 pkg/cel/library/authz.go):
// authorizer.path(p) / .group(g).resource(r).subresource(s).namespace(ns).name(n), then
// .check(verb) → Decision with .allowed() and .reason(); authorizer.serviceAccount(ns, name)
// checks as that service account instead. (v1.27 has no errored()/error(); a failing authorizer
// makes check() an error "error in authorization check: ...".)
//
// Evaluation is synchronous, so the CelAuthorizer contract is too: an implementation answers from
// what it already holds (e.g. RBAC informer caches), as upstream's authorizers do.
import { create, type DescMessage, type Message } from '@bufbuild/protobuf';
import { celMethod, CelScalar, objectType, type CelFunc } from '@bufbuild/cel';
import {
  AUTHORIZER_TYPE,
  DECISION_TYPE,
  GROUP_CHECK_TYPE,
  PATH_CHECK_TYPE,
  RESOURCE_CHECK_TYPE,
} from './types.js';
import { goTrimSpace } from './strings.js';

const { STRING, BOOL } = CelScalar;

/** The user an authorization check is made for, when serviceAccount() replaced the caller. */
export interface CelAuthorizationUser {
  readonly name: string;
  readonly groups: readonly string[];
}

/** authorizer.AttributesRecord as authz.go fills it. */
export interface CelAuthorizationAttributes {
  /** Undefined: the request's own user (the CelAuthorizer knows it). */
  readonly user: CelAuthorizationUser | undefined;
  readonly verb: string;
  readonly resourceRequest: boolean;
  /** Non-resource requests. */
  readonly path: string;
  readonly apiGroup: string;
  /** "*" for resource checks, as upstream. */
  readonly apiVersion: string;
  readonly resource: string;
  readonly subresource: string;
  readonly namespace: string;
  readonly name: string;
}

export interface CelAuthorizationDecision {
  readonly decision: 'allow' | 'deny' | 'noOpinion';
  readonly reason: string;
}

/** What check() calls. Throwing makes the check a CEL error. */
export interface CelAuthorizer {
  authorize(attributes: CelAuthorizationAttributes): CelAuthorizationDecision;
}

/** The authorizer of the evaluation under way (evaluation is synchronous and not re-entrant here). */
let current: CelAuthorizer | undefined;

/** Runs `f` with `authorizer` answering check() calls. */
export function withAuthorizer<T>(authorizer: CelAuthorizer | undefined, f: () => T): T {
  const previous = current;
  current = authorizer;
  try {
    return f();
  } finally {
    current = previous;
  }
}

/** The value to bind to the `authorizer` variable. */
export function authorizerValue(): Message {
  return create(AUTHORIZER_TYPE, {});
}

/**
 * The value of `authorizer.requestResource` (NewResourceAuthorizerVal): a resource check already
 * naming the request's group, resource, subresource, namespace and name.
 */
export function requestResourceCheckValue(target: {
  readonly group: string;
  readonly resource: string;
  readonly subresource: string;
  readonly namespace: string;
  readonly name: string;
}): Message {
  return create(RESOURCE_CHECK_TYPE, { ...target });
}

interface Subject {
  saNamespace?: unknown;
  saName?: unknown;
  isServiceAccount?: unknown;
}

type Fields = Record<string, unknown>;

function fields(value: { message: unknown }): Fields {
  return value.message as Fields;
}

function str(f: Fields, key: string): string {
  const v = f[key];
  return typeof v === 'string' ? v : '';
}

function subjectOf(f: Subject): Fields {
  return {
    saNamespace: f.saNamespace,
    saName: f.saName,
    isServiceAccount: f.isServiceAccount,
  };
}

function userOf(f: Fields): CelAuthorizationUser | undefined {
  if (f['isServiceAccount'] !== true) return undefined;
  const ns = str(f, 'saNamespace');
  const name = str(f, 'saName');
  // serviceaccount.ServiceAccountInfo.UserInfo
  return {
    name: `system:serviceaccount:${ns}:${name}`,
    groups: ['system:serviceaccounts', `system:serviceaccounts:${ns}`],
  };
}

const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

function authorize(f: Fields, verb: string, resourceRequest: boolean): Message {
  if (current === undefined) throw new Error('error in authorization check: no authorizer');
  let decision: CelAuthorizationDecision;
  try {
    decision = current.authorize({
      user: userOf(f),
      verb,
      resourceRequest,
      path: resourceRequest ? '' : str(f, 'path'),
      apiGroup: resourceRequest ? str(f, 'group') : '',
      apiVersion: resourceRequest ? '*' : '',
      resource: str(f, 'resource'),
      subresource: str(f, 'subresource'),
      namespace: str(f, 'namespace'),
      name: str(f, 'name'),
    });
  } catch (err) {
    throw new Error(`error in authorization check: ${err instanceof Error ? err.message : String(err)}`);
  }
  return create(DECISION_TYPE, {
    decision: decision.decision === 'allow' ? 1 : decision.decision === 'deny' ? 0 : 2,
    reason: decision.reason,
  });
}

function make(desc: DescMessage, init: Fields): Message {
  return create(desc, init);
}

const AUTHORIZER = objectType(AUTHORIZER_TYPE);
const PATH_CHECK = objectType(PATH_CHECK_TYPE);
const GROUP_CHECK = objectType(GROUP_CHECK_TYPE);
const RESOURCE_CHECK = objectType(RESOURCE_CHECK_TYPE);
const DECISION = objectType(DECISION_TYPE);

function withField(value: { message: unknown }, key: string, v: string): Message {
  return make(RESOURCE_CHECK_TYPE, { ...fields(value), [key]: v });
}

export const authzLibrary: readonly CelFunc[] = [
  celMethod('path', AUTHORIZER, [STRING], PATH_CHECK, function (path) {
    if (goTrimSpace(path).length === 0) throw new Error('path must not be empty');
    return make(PATH_CHECK_TYPE, { ...subjectOf(fields(this)), path });
  }),
  celMethod('group', AUTHORIZER, [STRING], GROUP_CHECK, function (group) {
    return make(GROUP_CHECK_TYPE, { ...subjectOf(fields(this)), group });
  }),
  celMethod('serviceAccount', AUTHORIZER, [STRING, STRING], AUTHORIZER, function (ns, name) {
    if (name.length > 253 || !DNS1123_SUBDOMAIN.test(name)) {
      throw new Error('Invalid service account name');
    }
    if (ns.length > 63 || !DNS1123_LABEL.test(ns)) {
      throw new Error('Invalid service account namespace');
    }
    return make(AUTHORIZER_TYPE, { saNamespace: ns, saName: name, isServiceAccount: true });
  }),
  celMethod('resource', GROUP_CHECK, [STRING], RESOURCE_CHECK, function (resource) {
    if (goTrimSpace(resource).length === 0) throw new Error('resource must not be empty');
    const f = fields(this);
    return make(RESOURCE_CHECK_TYPE, { ...subjectOf(f), group: str(f, 'group'), resource });
  }),
  celMethod('subresource', RESOURCE_CHECK, [STRING], RESOURCE_CHECK, function (v) {
    return withField(this, 'subresource', v);
  }),
  celMethod('namespace', RESOURCE_CHECK, [STRING], RESOURCE_CHECK, function (v) {
    return withField(this, 'namespace', v);
  }),
  celMethod('name', RESOURCE_CHECK, [STRING], RESOURCE_CHECK, function (v) {
    return withField(this, 'name', v);
  }),
  celMethod('check', PATH_CHECK, [STRING], DECISION, function (verb) {
    return authorize(fields(this), verb, false);
  }),
  celMethod('check', RESOURCE_CHECK, [STRING], DECISION, function (verb) {
    return authorize(fields(this), verb, true);
  }),
  celMethod('allowed', DECISION, [], BOOL, function () {
    return fields(this)['decision'] === 1;
  }),
  celMethod('reason', DECISION, [], STRING, function () {
    return str(fields(this), 'reason');
  }),
];
