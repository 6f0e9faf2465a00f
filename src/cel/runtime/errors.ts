// Runtime errors of CEL evaluation, with cel-go v0.12.7's texts where @bufbuild/cel words them
// differently (common/types/err.go, interpreter/attributes.go, and Kubernetes' unstructured
// values in apiserver pkg/cel/common/values.go for lists and maps).
import { COST_LIMIT_EXCEEDED_MESSAGE } from './cost.js';

export type CelRuntimeErrorKind = 'evaluation' | 'costLimitExceeded';

/** Why an evaluation produced no value. Never thrown by eval(); returned. */
export class CelRuntimeError extends Error {
  override readonly name = 'CelRuntimeError';
  readonly kind: CelRuntimeErrorKind;

  constructor(message: string, kind: CelRuntimeErrorKind = 'evaluation') {
    super(message);
    this.kind = kind;
  }

  static costLimitExceeded(): CelRuntimeError {
    return new CelRuntimeError(COST_LIMIT_EXCEEDED_MESSAGE, 'costLimitExceeded');
  }
}

const TRANSLATIONS: readonly (readonly [RegExp, (m: RegExpMatchArray) => string])[] = [
  [/^(?:int|uint) divide by zero$/, () => 'division by zero'],
  [/^(?:int|uint) modulus by zero$/, () => 'modulus by zero'],
  [/^int overflow\b.*$/, () => 'integer overflow'],
  [/^uint overflow\b.*$/, () => 'unsigned integer overflow'],
  [/^duration overflow\b.*$/, () => 'duration overflow'],
  [/^timestamp overflow\b.*$/, () => 'timestamp overflow'],
  [/^index (-?\d+) out of bounds\b.*$/, (m) => `index out of bounds: ${m[1]}`],
  [/^field not found: (.*)$/s, (m) => `no such key: ${m[1]}`],
  [/^key not found: (.*)$/s, (m) => `no such key: ${m[1]}`],
  [/^found no matching overload for .*$/s, () => 'no such overload'],
  [/^unbound function: .*$/s, () => 'no such overload'],
  [/^unresolved attribute$/, () => 'no such attribute'],
  [/^map key conflict: .*$/s, () => 'Failed with repeated key'],
];

/** cel-go's text for an error @bufbuild/cel reported. */
export function celGoMessage(message: string): string {
  for (const [re, to] of TRANSLATIONS) {
    const m = re.exec(message);
    if (m) return to(m);
  }
  return message;
}
