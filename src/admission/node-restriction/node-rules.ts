/**
 * NodeRestriction's rules for Node objects (v1.27): a node acts only on the Node of its own name;
 * it may not register or update with a config source (an update may keep the one it has), may not
 * change its taints, and may set, change or remove only the labels {@link forbiddenLabels} allows.
 */
import { goQuote } from '../../machinery/field/errors.js';
import { at, isSet } from './json-fields.js';
import { missingObject, refuse } from './node-request.js';
import type { NodeRequest } from './node-request.js';
import { forbiddenLabels, modifiedLabels } from './node-labels.js';
import { semanticEqual } from './semantic-equal.js';

export function admitNode(req: NodeRequest): void {
  const node = goQuote(req.nodeName);
  if (req.a.name !== req.nodeName) {
    throw refuse(req, `node ${node} is not allowed to modify node ${goQuote(req.a.name)}`);
  }
  if (req.a.operation === 'CREATE') {
    const object = req.a.object;
    if (object === undefined) throw missingObject(req);
    if (isSet(object, 'spec', 'configSource')) {
      throw refuse(req, `node ${node} is not allowed to create pods with a non-nil configSource`);
    }
    const forbidden = forbiddenLabels(modifiedLabels(object.metadata.labels ?? {}, {}));
    if (forbidden.length > 0) {
      throw refuse(req, `node ${node} is not allowed to set the following labels: ${forbidden.join(', ')}`);
    }
  }
  if (req.a.operation === 'UPDATE') {
    const object = req.a.object;
    const old = req.a.oldObject;
    if (object === undefined || old === undefined) throw missingObject(req);
    const configSource = at(object, 'spec', 'configSource');
    if (
      isSet(object, 'spec', 'configSource') &&
      !semanticEqual(configSource, at(old, 'spec', 'configSource'))
    ) {
      throw refuse(req, `node ${node} is not allowed to update configSource to a new non-nil configSource`);
    }
    if (!semanticEqual(at(object, 'spec', 'taints'), at(old, 'spec', 'taints'))) {
      throw refuse(req, `node ${node} is not allowed to modify taints`);
    }
    const forbidden = forbiddenLabels(
      modifiedLabels(object.metadata.labels ?? {}, old.metadata.labels ?? {}),
    );
    if (forbidden.length > 0) throw refuse(req, `is not allowed to modify labels: ${forbidden.join(', ')}`);
  }
}
