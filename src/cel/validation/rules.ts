/**
 * The x-kubernetes-validations entries of a schema node as upstream's ValidationRule
 * (apiextensions v0.27: rule, message, messageExpression; absent strings read as empty), and the
 * texts built from them (apiextensions-apiserver v0.27 pkg/apiserver/schema/cel/validation.go
 * ruleErrorString / ruleMessageOrDefault, and the `%#v` a CRD-time field error prints).
 */
import { goQuote, goRendered, type GoRendered } from '../../machinery/field/errors.js';
import type { JsonSchema } from '../schema/structural.js';

export interface ValidationRule {
  readonly rule: string;
  readonly message: string;
  readonly messageExpression: string;
}

function text(o: Readonly<Record<string, unknown>>, key: string): string {
  const v = o[key];
  return typeof v === 'string' ? v : '';
}

/** The rules of one schema node (non-object entries read as empty rules). */
export function schemaRules(schema: JsonSchema): readonly ValidationRule[] {
  const raw = schema['x-kubernetes-validations'];
  if (!Array.isArray(raw)) return [];
  return raw.map((r: unknown) => {
    const o = typeof r === 'object' && r !== null && !Array.isArray(r) ? (r as Record<string, unknown>) : {};
    return {
      rule: text(o, 'rule'),
      message: text(o, 'message'),
      messageExpression: text(o, 'messageExpression'),
    };
  });
}

/** ruleErrorString: the trimmed message if any, else the trimmed rule. */
export function ruleErrorString(rule: ValidationRule): string {
  if (rule.message.length > 0) return rule.message.trim();
  return rule.rule.trim();
}

/** ruleMessageOrDefault: the trimmed message, or "failed rule: <rule>". */
export function ruleMessageOrDefault(rule: ValidationRule): string {
  if (rule.message.length === 0) return `failed rule: ${ruleErrorString(rule)}`;
  return rule.message.trim();
}

/** Go's `%#v` of the internal apiextensions.ValidationRule, the bad value of CRD-time errors. */
export function goValidationRule(rule: ValidationRule): GoRendered {
  return goRendered(
    `apiextensions.ValidationRule{Rule:${goQuote(rule.rule)}, Message:${goQuote(rule.message)}, MessageExpression:${goQuote(rule.messageExpression)}}`,
  );
}
