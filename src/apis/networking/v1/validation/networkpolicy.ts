/** NetworkPolicy validation as pkg/apis/networking/validation (release-1.27), on networking/v1 JSON. */
import { FieldPath, fieldErrors, goQuote } from '../../../../machinery/field/errors.js';
import type { FieldError } from '../../../../machinery/field/errors.js';
import { validateLabelSelector } from '../../../../machinery/labels/selector.js';
import type { LabelSelectorValidationOptions } from '../../../../machinery/labels/selector.js';
import type { KubeObject } from '../../../../machinery/object.js';
import { invalidRendered } from '../../../../machinery/validation/gosyntax.js';
import { isValidPortName, isValidPortNum } from '../../../../machinery/validation/names.js';
import type { JsonObject } from '../../../../util/json.js';
import { toMetav1Selector } from '../../../../machinery/labels/metav1.js';
import { indexedObjs, intOrStr, num, obj, str, strArr } from '../../../core/v1/access.js';
import { invalidEach } from '../../../core/v1/validation/common.js';
import { cidrContains, parseCIDRSloppy } from './cidr.js';

const protocols = ['TCP', 'UDP', 'SCTP'];
const policyTypes = ['Ingress', 'Egress'];

/** Upstream ValidateNetworkPolicyPort. */
function validateNetworkPolicyPort(port: JsonObject, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const protocol = str(port, 'protocol');
  if (protocol !== undefined && !protocols.includes(protocol)) {
    errs.push(fieldErrors.notSupported(path.child('protocol'), protocol, protocols));
  }
  const value = intOrStr(port, 'port');
  const endPort = num(port, 'endPort');
  if (typeof value === 'number') {
    errs.push(...invalidEach(path.child('port'), value, isValidPortNum(value)));
    if (endPort !== undefined) {
      // Upstream reports the port, not the endPort, as the bad value here.
      if (endPort < value) {
        errs.push(
          fieldErrors.invalid(path.child('endPort'), value, 'must be greater than or equal to `port`'),
        );
      }
      errs.push(...invalidEach(path.child('endPort'), endPort, isValidPortNum(endPort)));
    }
  } else if (typeof value === 'string') {
    if (endPort !== undefined) {
      errs.push(
        fieldErrors.invalid(
          path.child('endPort'),
          endPort,
          'may not be specified when `port` is non-numeric',
        ),
      );
    }
    errs.push(...invalidEach(path.child('port'), value, isValidPortName(value)));
  } else if (endPort !== undefined) {
    errs.push(
      fieldErrors.invalid(
        path.child('endPort'),
        endPort,
        'may not be specified when `port` is not specified',
      ),
    );
  }
  return errs;
}

/** Upstream ValidateIPBlock (v1.27: an unparsable except entry ends the checks). */
function validateIPBlock(block: JsonObject, path: FieldPath): FieldError[] {
  const cidr = str(block, 'cidr') ?? '';
  if (cidr === '') return [fieldErrors.required(path.child('cidr'), '')];
  const net = parseCIDRSloppy(cidr);
  if (net === undefined) return [fieldErrors.invalid(path.child('cidr'), cidr, 'not a valid CIDR')];
  const errs: FieldError[] = [];
  const excepts = strArr(block, 'except');
  for (let i = 0; i < excepts.length; i++) {
    const text = excepts[i]!;
    const exceptPath = path.child('except').index(i);
    const except = parseCIDRSloppy(text);
    if (except === undefined) {
      errs.push(fieldErrors.invalid(exceptPath, text, 'not a valid CIDR'));
      return errs;
    }
    if (!cidrContains(net, except.ip) || net.ones >= except.ones) {
      errs.push(fieldErrors.invalid(exceptPath, text, 'must be a strict subset of `cidr`'));
    }
  }
  return errs;
}

/** Upstream ValidateNetworkPolicyPeer: one of the selectors, or an ipBlock alone. */
function validateNetworkPolicyPeer(
  peer: JsonObject,
  path: FieldPath,
  opts: LabelSelectorValidationOptions,
): FieldError[] {
  const errs: FieldError[] = [];
  let peers = 0;
  const podSelector = obj(peer, 'podSelector');
  if (podSelector !== undefined) {
    peers++;
    errs.push(...validateLabelSelector(toMetav1Selector(podSelector), path.child('podSelector'), opts));
  }
  const namespaceSelector = obj(peer, 'namespaceSelector');
  if (namespaceSelector !== undefined) {
    peers++;
    errs.push(
      ...validateLabelSelector(toMetav1Selector(namespaceSelector), path.child('namespaceSelector'), opts),
    );
  }
  const ipBlock = obj(peer, 'ipBlock');
  if (ipBlock !== undefined) {
    peers++;
    errs.push(...validateIPBlock(ipBlock, path.child('ipBlock')));
  }
  if (peers === 0) errs.push(fieldErrors.required(path, 'must specify a peer'));
  else if (peers > 1 && ipBlock !== undefined) {
    errs.push(fieldErrors.forbidden(path, 'may not specify both ipBlock and another peer'));
  }
  return errs;
}

/** Upstream ValidateNetworkPolicySpec. */
function validateNetworkPolicySpec(np: KubeObject, opts: LabelSelectorValidationOptions): FieldError[] {
  const path = FieldPath.root('spec');
  const spec = obj(np, 'spec');
  const errs = validateLabelSelector(
    toMetav1Selector(obj(spec, 'podSelector') ?? {}),
    path.child('podSelector'),
    opts,
  );
  const rules: [string, string][] = [
    ['ingress', 'from'],
    ['egress', 'to'],
  ];
  for (const [direction, peersField] of rules) {
    for (const [i, rule] of indexedObjs(spec, direction)) {
      const rulePath = path.child(direction).index(i);
      for (const [j, port] of indexedObjs(rule, 'ports')) {
        errs.push(...validateNetworkPolicyPort(port, rulePath.child('ports').index(j)));
      }
      for (const [j, peer] of indexedObjs(rule, peersField)) {
        errs.push(...validateNetworkPolicyPeer(peer, rulePath.child(peersField).index(j), opts));
      }
    }
  }
  const types = strArr(spec, 'policyTypes');
  if (types.length > policyTypes.length) {
    errs.push(
      invalidRendered(
        path.child('policyTypes'),
        `[]networking.PolicyType{${types.map(goQuote).join(', ')}}`,
        'may not specify more than two policyTypes',
      ),
    );
    return errs;
  }
  types.forEach((t, i) => {
    if (!policyTypes.includes(t))
      errs.push(fieldErrors.notSupported(path.child('policyTypes').index(i), t, policyTypes));
  });
  return errs;
}

/** Upstream ValidationOptionsForNetworking: a stored invalid podSelector keeps being accepted. */
function validationOptions(old: KubeObject | undefined): LabelSelectorValidationOptions {
  if (old === undefined) return { allowInvalidLabelValueInSelector: false };
  const sel = toMetav1Selector(obj(obj(old, 'spec'), 'podSelector') ?? {});
  return { allowInvalidLabelValueInSelector: validateLabelSelector(sel, FieldPath.root('')).length > 0 };
}

export function validateNetworkPolicy(np: KubeObject): FieldError[] {
  return validateNetworkPolicySpec(np, validationOptions(undefined));
}

/**
 * The update strategy runs ValidateNetworkPolicy and ValidateNetworkPolicyUpdate, so the spec is
 * checked twice (the Status message lists each error once; its causes list both).
 */
export function validateNetworkPolicyUpdate(np: KubeObject, old: KubeObject): FieldError[] {
  const opts = validationOptions(old);
  return [...validateNetworkPolicySpec(np, opts), ...validateNetworkPolicySpec(np, opts)];
}
