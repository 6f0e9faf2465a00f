/**
 * Compiling admission expressions (apiserver v0.27 pkg/admission/plugin/cel CompileCELExpression):
 * parse and type-check in the admission environment, require one of the expression kind's result
 * types, plan a program limited to PerCallLimit. Failures carry upstream's text: "compilation
 * failed: ERROR: <input>:1:5: ...", "must evaluate to bool", "must evaluate to one of [string
 * null_type]". Never throws.
 */
import { compileCel, PER_CALL_LIMIT, type CelCompileFailure } from '../compile.js';
import { formatType, typeEquals, BOOL, NULL, STRING, type CheckedType } from '../checker/types.js';
import type { CelProgram } from '../runtime/program.js';
import type { DeclType } from '../schema/decl-type.js';
import { admissionVariables, type OptionalVariables } from './environment.js';

/** What an expression must evaluate to: a condition, a message, or an audit annotation value. */
export type ExpressionKind = 'bool' | 'string' | 'string-or-null';

const returnTypes: Readonly<Record<ExpressionKind, readonly CheckedType[]>> = {
  bool: [BOOL],
  string: [STRING],
  'string-or-null': [STRING, NULL],
};

export type AdmissionCompileResult =
  | { readonly ok: true; readonly program: CelProgram; readonly outputType: CheckedType }
  | { readonly ok: false; readonly error: CelCompileFailure };

export interface AdmissionCompileOptions extends OptionalVariables {
  readonly kind: ExpressionKind;
  /** Per-evaluation cost limit (tests only; default PerCallLimit). */
  readonly perCallLimit?: number;
  /** Typed `object`/`oldObject`/`params` for type checking (the policy status controller). */
  readonly typed?: { readonly object?: DeclType; readonly params?: DeclType };
}

/** cel-go prints a type list with its String() of each element: `[string null_type]`. */
function typeListText(types: readonly CheckedType[]): string {
  return `[${types.map((t) => (t.kind === 'null' ? 'null_type' : formatType(t))).join(' ')}]`;
}

export function compileAdmissionExpression(
  expression: string,
  options: AdmissionCompileOptions,
): AdmissionCompileResult {
  const compiled = compileCel(expression, {
    variables: admissionVariables(options, options.typed),
    perCallLimit: options.perCallLimit ?? PER_CALL_LIMIT,
  });
  if (!compiled.ok) return { ok: false, error: compiled.error };
  const wanted = returnTypes[options.kind];
  if (!wanted.some((t) => typeEquals(compiled.outputType, t))) {
    const detail =
      wanted.length === 1
        ? `must evaluate to ${formatType(wanted[0]!)}`
        : `must evaluate to one of ${typeListText(wanted)}`;
    return { ok: false, error: { type: 'Invalid', detail } };
  }
  return { ok: true, program: compiled.program, outputType: compiled.outputType };
}
