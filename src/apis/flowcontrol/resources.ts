/**
 * flowcontrol.apiserver.k8s.io resources as kube-apiserver v1.27 serves and discovers them: both
 * kinds at v1beta2 and v1beta3 (both on by default), cluster scoped, with a status subresource,
 * no short names or categories. v1.27 stores them as v1beta3 (its version priority puts v1beta3
 * first; v1.26 still stored v1beta2 for one release of downgrade safety).
 */
import type { JsonObject } from '../../util/json.js';
import type { ResourceInfo } from '../resource.js';
import { allVerbs } from '../resource.js';
import { flowcontrolGroup } from './constants.js';
import {
  defaultFlowSchema,
  defaultPriorityLevelConfigurationV1beta2,
  defaultPriorityLevelConfigurationV1beta3,
} from './defaults.js';

function flowSchemaInfo(version: string): ResourceInfo {
  return {
    group: flowcontrolGroup,
    version,
    kind: 'FlowSchema',
    resource: 'flowschemas',
    singular: 'flowschema',
    namespaced: false,
    definition: `io.k8s.api.flowcontrol.${version}.FlowSchema`,
    verbs: allVerbs,
    statusSubresource: true,
    defaulter: defaultFlowSchema,
  };
}

function priorityLevelConfigurationInfo(version: string, defaulter: (o: JsonObject) => void): ResourceInfo {
  return {
    group: flowcontrolGroup,
    version,
    kind: 'PriorityLevelConfiguration',
    resource: 'prioritylevelconfigurations',
    singular: 'prioritylevelconfiguration',
    namespaced: false,
    definition: `io.k8s.api.flowcontrol.${version}.PriorityLevelConfiguration`,
    verbs: allVerbs,
    statusSubresource: true,
    defaulter,
  };
}

export const flowSchemaV1beta3Info: ResourceInfo = flowSchemaInfo('v1beta3');
export const flowSchemaV1beta2Info: ResourceInfo = flowSchemaInfo('v1beta2');
export const priorityLevelConfigurationV1beta3Info: ResourceInfo = priorityLevelConfigurationInfo(
  'v1beta3',
  defaultPriorityLevelConfigurationV1beta3,
);
export const priorityLevelConfigurationV1beta2Info: ResourceInfo = priorityLevelConfigurationInfo(
  'v1beta2',
  defaultPriorityLevelConfigurationV1beta2,
);
