// Unit tests: admission expressions' environment, result types and the request variable.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AdmissionAttributes } from '../../machinery/admission-attributes.js';
import type { KubeObject } from '../../machinery/object.js';
import { admissionActivation, admissionRequestJson } from './activation.js';
import { compileAdmissionExpression } from './compile.js';
import { evaluateExpressions, OUT_OF_BUDGET_MESSAGE } from './filter.js';

const vars = { hasParams: false, hasAuthorizer: true };

function attrsOf(o: {
  group?: string;
  resource: string;
  kind: string;
  namespace?: string;
  name?: string;
  object?: KubeObject;
}): AdmissionAttributes {
  return {
    operation: 'CREATE',
    resource: { group: o.group ?? '', version: 'v1', resource: o.resource, kind: o.kind, namespaced: true },
    subresource: '',
    namespace: o.namespace ?? '',
    name: o.name ?? o.object?.metadata.name ?? '',
    ...(o.object !== undefined ? { object: o.object } : {}),
    dryRun: false,
    user: { name: 'alice', uid: '', groups: ['system:authenticated'], extra: {} },
  };
}

test('result types are checked with upstream messages', () => {
  const fail = (e: string, kind: 'bool' | 'string' | 'string-or-null', v = vars) => {
    const r = compileAdmissionExpression(e, { ...v, kind });
    return r.ok ? 'ok' : r.error.detail;
  };
  assert.equal(fail('true', 'bool'), 'ok');
  assert.equal(fail('object.x', 'bool'), 'must evaluate to bool');
  assert.equal(fail("'x'", 'string-or-null'), 'ok');
  assert.equal(fail('null', 'string-or-null'), 'ok');
  assert.equal(fail('1', 'string-or-null'), 'must evaluate to one of [string null_type]');
  assert.equal(fail("request.userInfo.username == 'x'", 'bool'), 'ok');
  assert.equal(
    fail('request.nope == 1', 'bool').startsWith(
      "compilation failed: ERROR: <input>:1:8: undefined field 'nope'",
    ),
    true,
  );
  assert.match(fail('params.x == 1', 'bool'), /undeclared reference to 'params'/);
  assert.equal(fail('params.x == 1', 'bool', { hasParams: true, hasAuthorizer: false }), 'ok');
  assert.match(
    fail("authorizer.path('/x').check('get').allowed()", 'bool', { hasParams: false, hasAuthorizer: false }),
    /undeclared reference to 'authorizer'/,
  );
  assert.equal(fail("authorizer.requestResource.check('get').allowed()", 'bool'), 'ok');
});

test('request carries upstream fields, omitting the empty ones', () => {
  const a = attrsOf({
    group: 'apps',
    resource: 'deployments',
    kind: 'Deployment',
    namespace: '',
    name: '',
  });
  assert.deepEqual(admissionRequestJson({ ...a, dryRun: true }), {
    kind: { group: 'apps', version: 'v1', kind: 'Deployment' },
    resource: { group: 'apps', version: 'v1', resource: 'deployments' },
    requestKind: { group: 'apps', version: 'v1', kind: 'Deployment' },
    requestResource: { group: 'apps', version: 'v1', resource: 'deployments' },
    operation: 'CREATE',
    userInfo: { username: 'alice', groups: ['system:authenticated'] },
    dryRun: true,
    options: { kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1', dryRun: ['All'] },
  });
});

test('one budget for a list: exhausting it stops the list', () => {
  const a = attrsOf({
    resource: 'pods',
    kind: 'Pod',
    namespace: 'ns',
    object: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' } },
  });
  const activation = admissionActivation({ attributes: a, request: admissionRequestJson(a) });
  const e = (expression: string) => ({
    expression,
    compiled: compileAdmissionExpression(expression, { ...vars, kind: 'bool' }),
  });
  const cheap = evaluateExpressions([e("object.metadata.name == 'p'"), undefined], activation, 1000);
  assert.equal(cheap.ok, true);
  assert.deepEqual(cheap.ok && cheap.results.map((r) => r.kind), ['value', 'none']);
  const list = '[1,2,3,4,5,6,7,8,9,10].all(x, [1,2,3,4,5,6,7,8,9,10].all(y, x * y < 1000))';
  const out = evaluateExpressions([e(list), e(list)], activation, 500);
  assert.deepEqual(out, { ok: false, error: { type: 'Invalid', detail: OUT_OF_BUDGET_MESSAGE } });
  const err = evaluateExpressions([e('object.spec.x == 1')], activation, 1000);
  assert.equal(
    err.ok && err.results[0]?.kind === 'error' && err.results[0].error.detail,
    "expression 'object.spec.x == 1' resulted in error: no such key: spec",
  );
});
