/** Discovery paths: `/api/`, `/apis/`, `/apis/<group>/`, `/<gv>/` and `/version/`. */
import {
  apiGroupDef,
  apiGroupListDef,
  apiResourceListDef,
  apiVersionsDef,
  groupIdentifier,
  groupVersionPath,
  json,
  tagOf,
  upperFirst,
  versionInfoDef,
} from './operations.js';
import { stringBody } from './operations.js';
import type { PathItem } from './operations.js';

/** The discovery path of a group-version (`/api/v1/`), answering an APIResourceList. */
export function groupVersionDiscoveryPath(group: string, version: string): PathItem {
  const gv = upperFirst(groupIdentifier(group)) + upperFirst(version);
  return {
    path: `${groupVersionPath(group, version)}/`,
    tag: tagOf(group, version),
    params: [],
    operations: [
      {
        method: 'get',
        operationId: `get${gv}APIResources`,
        action: '',
        consumes: json,
        produces: json,
        params: [],
        responses: { '200': apiResourceListDef },
      },
    ],
  };
}

/** `/apis/<group>/` (APIGroup), `/api/` (APIVersions), `/apis/` (APIGroupList), `/version/`. */
export function groupDiscoveryPath(group: string): PathItem {
  return {
    path: `/apis/${group}/`,
    tag: groupIdentifier(group),
    params: [],
    operations: [
      {
        method: 'get',
        operationId: `get${upperFirst(groupIdentifier(group))}APIGroup`,
        action: '',
        consumes: json,
        produces: json,
        params: [],
        responses: { '200': apiGroupDef },
      },
    ],
  };
}

export function rootPaths(): PathItem[] {
  const simple = (
    path: string,
    tag: string,
    operationId: string,
    def: string,
    types: readonly string[],
  ): PathItem => ({
    path,
    tag,
    params: [],
    operations: [
      {
        method: 'get',
        operationId,
        action: '',
        consumes: types,
        produces: types,
        params: [],
        responses: { '200': def },
      },
    ],
  });
  return [
    simple('/api/', 'core', 'getCoreAPIVersions', apiVersionsDef, json),
    simple('/apis/', 'apis', 'getAPIVersions', apiGroupListDef, json),
    simple('/version/', 'version', 'getCodeVersion', versionInfoDef, ['application/json']),
  ];
}

/**
 * The service-account issuer discovery documents (kube-apiserver's OpenIDMetadataServer routes),
 * published when the server serves them.
 */
export function issuerDiscoveryPaths(): PathItem[] {
  const get = (path: string, tag: string, operationId: string, type: string): PathItem => ({
    path,
    tag,
    params: [],
    operations: [
      {
        method: 'get',
        operationId,
        action: '',
        consumes: [],
        produces: [type],
        params: [],
        responses: { '200': stringBody },
      },
    ],
  });
  return [
    get(
      '/.well-known/openid-configuration/',
      'WellKnown',
      'getServiceAccountIssuerOpenIDConfiguration',
      'application/json',
    ),
    get('/openid/v1/jwks/', 'openid', 'getServiceAccountIssuerOpenIDKeyset', 'application/jwk-set+json'),
  ];
}
