/**
 * Evaluating a custom resource's x-kubernetes-validations, as apiextensions-apiserver v0.27
 * pkg/apiserver/schema/cel/validation.go (NewValidator, Validate): a tree parallel to the schema
 * holds each node's compiled rules (compiled once per CRD version); validation walks the object
 * and, for updates, the old object beside it. Old values are correlated through object properties,
 * granular/atomic maps by key and `x-kubernetes-list-type: map` lists by their keys; transition
 * rules (those using `oldSelf`) run only where an old value was found. All rules of one call share
 * a cost budget (RuntimeCELCostBudget); each evaluation also has its per-call limit.
 *
 * Errors carry upstream's texts ("failed rule: <rule>", the message, the messageExpression
 * result, "validation failed due to running out of cost budget, no further validation rules will
 * be run", ...). validate() never throws: anything unexpected becomes a field error (AM-09).
 */
import type { CelInput } from '@bufbuild/cel';
import { FieldError, FieldPath, goQuote, type FieldErrorList } from '../../machinery/field/errors.js';
import { PER_CALL_LIMIT, RUNTIME_CEL_COST_BUDGET, OLD_SCOPED_VAR_NAME, SCOPED_VAR_NAME } from '../compile.js';
import type { CelProgram } from '../runtime/program.js';
import type { DeclType } from '../schema/decl-type.js';
import { escapeName } from '../schema/escaping.js';
import { schemaDeclType } from '../schema/schema-decl-type.js';
import {
  isEmbeddedResource,
  schemaAdditionalProperties,
  schemaItems,
  schemaProperties,
  schemaType,
  withTypeAndObjectMeta,
  type JsonSchema,
} from '../schema/structural.js';
import { compileRules, type CompiledRule } from './compile-rules.js';
import { toRuleValue } from './data-values.js';
import { MAX_EVALUATED_MESSAGE_EXPRESSION_SIZE_BYTES } from './limits.js';
import { makeMapList } from './map-list.js';
import { ruleErrorString, ruleMessageOrDefault, schemaRules } from './rules.js';
import { hasValidationRules } from './has-rules.js';
import { toJsonSchema, type SchemaInput } from './schema-input.js';

const OUT_OF_BUDGET =
  'validation failed due to running out of cost budget, no further validation rules will be run';
const COST_LIMIT_PREFIX = 'operation cancelled: actual cost limit exceeded';

/** One schema node that has rules, or descendants with rules. */
interface RuleNode {
  readonly rules: readonly CompiledRule[];
  readonly compilationError?: string;
  readonly isResourceRoot: boolean;
  readonly hasTransitionRule: boolean;
  readonly items?: RuleNode;
  readonly properties?: ReadonlyMap<string, RuleNode>;
  readonly additionalProperties?: RuleNode;
}

/** A field path that may be Go's nil *field.Path (printed `<nil>`). */
type Path = FieldPath | undefined;

const pathText = (p: Path): string => (p === undefined ? '<nil>' : p.toString());
const childPath = (p: Path, name: string): FieldPath =>
  p === undefined ? FieldPath.root(name) : p.child(name);
const keyPath = (p: Path, k: string): FieldPath => (p === undefined ? FieldPath.root(`[${k}]`) : p.key(k));
const indexPath = (p: Path, i: number): FieldPath =>
  p === undefined ? FieldPath.root(`[${i}]`) : p.index(i);

function invalid(p: Path, schema: JsonSchema, detail: string): FieldError {
  return new FieldError('FieldValueInvalid', pathText(p), schemaType(schema), detail);
}

function internalError(p: Path, detail: string): FieldError {
  return new FieldError('InternalError', pathText(p), '', detail);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function buildNode(
  schema: JsonSchema,
  isResourceRoot: boolean,
  declType: DeclType | undefined,
  perCallLimit: number,
): RuleNode | undefined {
  let rules: readonly CompiledRule[] = [];
  let compilationError: string | undefined;
  const declared = schemaRules(schema);
  // Compile returns no results when the node has no CEL type (rules there are not run).
  if (declared.length > 0 && declType !== undefined) {
    try {
      rules = compileRules(declared, declType, perCallLimit);
    } catch (err) {
      compilationError = err instanceof Error ? err.message : String(err);
    }
  }
  const itemsSchema = schemaItems(schema);
  const items =
    itemsSchema === undefined
      ? undefined
      : buildNode(itemsSchema, isEmbeddedResource(itemsSchema), declType?.elemType, perCallLimit);
  const properties = new Map<string, RuleNode>();
  for (const [name, prop] of schemaProperties(schema) ?? []) {
    let fieldType: DeclType | undefined;
    const escaped = escapeName(name);
    if (escaped !== undefined) {
      // Fields with unknown types are left out of CEL validation entirely.
      fieldType = declType?.fields?.get(escaped)?.type;
    } else {
      // An unescapable name is absent from the object's type; its value still has one.
      fieldType = schemaDeclType(prop, isEmbeddedResource(prop));
    }
    if (fieldType === undefined) continue;
    const node = buildNode(prop, isEmbeddedResource(prop), fieldType, perCallLimit);
    if (node !== undefined) properties.set(name, node);
  }
  const apSchema = schemaAdditionalProperties(schema);
  const additionalProperties =
    apSchema === undefined
      ? undefined
      : buildNode(apSchema, isEmbeddedResource(apSchema), declType?.elemType, perCallLimit);
  if (
    rules.length === 0 &&
    compilationError === undefined &&
    items === undefined &&
    additionalProperties === undefined &&
    properties.size === 0
  ) {
    return undefined;
  }
  return {
    rules,
    ...(compilationError !== undefined ? { compilationError } : {}),
    isResourceRoot,
    hasTransitionRule: rules.some((r) => r.transitionRule),
    ...(items !== undefined ? { items } : {}),
    ...(properties.size > 0 ? { properties } : {}),
    ...(additionalProperties !== undefined ? { additionalProperties } : {}),
  };
}

export interface RuleValidatorOptions {
  /** The schema is a resource's root (default true): `apiVersion`, `kind`, `metadata.name` exist. */
  readonly isResourceRoot?: boolean;
  /** Per-evaluation cost limit (default PerCallLimit; tests lower it). */
  readonly perCallLimit?: number;
}

export interface ValidateOptions {
  /** Where the object sits; default Go's nil path (errors at the root print `<nil>`). */
  readonly path?: FieldPath;
  /** The cost budget of this call (default RuntimeCELCostBudget). */
  readonly costBudget?: number;
}

export interface ValidateResult {
  readonly errors: FieldErrorList;
  /** What is left of the budget; negative once the budget ran out and validation stopped. */
  readonly remainingBudget: number;
}

/**
 * The compiled x-kubernetes-validations of one CRD version's schema. Build it once per version
 * (compiling every rule) and call validate() for creates, updates and status updates.
 */
export class CustomResourceRuleValidator {
  readonly #schema: JsonSchema;
  readonly #root: RuleNode | undefined;

  constructor(schema: SchemaInput, options: RuleValidatorOptions = {}) {
    this.#schema = toJsonSchema(schema);
    const isResourceRoot = options.isResourceRoot ?? true;
    let root: RuleNode | undefined;
    try {
      root = hasValidationRules(this.#schema)
        ? buildNode(
            this.#schema,
            isResourceRoot,
            schemaDeclType(this.#schema, isResourceRoot),
            options.perCallLimit ?? PER_CALL_LIMIT,
          )
        : undefined;
    } catch (err) {
      root = {
        rules: [],
        compilationError: err instanceof Error ? err.message : String(err),
        isResourceRoot,
        hasTransitionRule: false,
      };
    }
    this.#root = root;
  }

  /** Whether any rule exists (upstream's NewValidator returns nil otherwise). */
  get hasRules(): boolean {
    return this.#root !== undefined;
  }

  /** The rule errors of `obj` (and, for updates, `old`). Never throws. */
  validate(obj: unknown, old?: unknown, options: ValidateOptions = {}): FieldErrorList {
    return this.validateWithBudget(obj, old, options).errors;
  }

  /** validate() with the budget left over (upstream's second result). */
  validateWithBudget(obj: unknown, old?: unknown, options: ValidateOptions = {}): ValidateResult {
    const budget = options.costBudget ?? RUNTIME_CEL_COST_BUDGET;
    try {
      const out = validateNode(this.#root, options.path, this.#schema, obj, old, budget);
      return { errors: out.errs, remainingBudget: out.budget };
    } catch (err) {
      return {
        errors: [
          internalError(
            options.path,
            `unexpected CEL validation failure: ${err instanceof Error ? err.message : String(err)}`,
          ),
        ],
        remainingBudget: -1,
      };
    }
  }
}

interface Walk {
  errs: FieldError[];
  budget: number;
}

function validateNode(
  node: RuleNode | undefined,
  path: Path,
  schema: JsonSchema,
  obj: unknown,
  old: unknown,
  budget: number,
): Walk {
  if (node === undefined || obj === null || obj === undefined) return { errs: [], budget };
  const out = validateExpressions(node, path, schema, obj, old, budget);
  if (out.budget < 0) return out;
  if (Array.isArray(obj)) {
    return validateArray(node, path, schema, obj, Array.isArray(old) ? old : undefined, out);
  }
  if (isRecord(obj)) return validateMap(node, path, schema, obj, isRecord(old) ? old : undefined, out);
  return out;
}

function validateExpressions(
  node: RuleNode,
  path: Path,
  schema: JsonSchema,
  obj: unknown,
  oldIn: unknown,
  costBudget: number,
): Walk {
  const errs: FieldError[] = [];
  let budget = costBudget;
  const old = oldIn === null ? undefined : oldIn;
  if (node.compilationError !== undefined) {
    errs.push(invalid(path, schema, `rule compiler initialization error: ${node.compilationError}`));
    return { errs, budget };
  }
  if (node.rules.length === 0) return { errs, budget };
  if (budget <= 0) {
    errs.push(invalid(path, schema, OUT_OF_BUDGET));
    return { errs, budget: -1 };
  }
  const activationSchema = node.isResourceRoot ? withTypeAndObjectMeta(schema) : schema;
  const self = toRuleValue(obj, activationSchema);
  const oldSelf =
    node.hasTransitionRule && old !== undefined ? toRuleValue(old, activationSchema) : undefined;
  const bindings: Record<string, CelInput> = {};
  if ('value' in self) bindings[SCOPED_VAR_NAME] = self.value;
  if (oldSelf !== undefined && 'value' in oldSelf) bindings[OLD_SCOPED_VAR_NAME] = oldSelf.value;

  for (const compiled of node.rules) {
    const rule = compiled.rule;
    if (compiled.error !== undefined) {
      errs.push(invalid(path, schema, `rule compile error: ${compiled.error.detail}`));
      continue;
    }
    if (compiled.program === undefined) continue; // empty rule
    if (compiled.transitionRule && old === undefined) continue; // nothing to compare with
    const dataError =
      'error' in self ? self.error : oldSelf !== undefined && 'error' in oldSelf ? oldSelf.error : undefined;
    if (dataError !== undefined) {
      errs.push(invalid(path, schema, `${dataError} evaluating rule: ${ruleErrorString(rule)}`));
      continue;
    }
    const result = compiled.program.eval(bindings);
    if (result.cost > budget) {
      errs.push(invalid(path, schema, OUT_OF_BUDGET));
      return { errs, budget: -1 };
    }
    budget -= result.cost;
    if ('error' in result) {
      const message = result.error.message;
      if (message.startsWith('no such overload')) {
        // An overload error that type checking could not see (int-or-string is dyn).
        errs.push(
          invalid(
            path,
            schema,
            `'${message}': call arguments did not match a supported operator, function or macro signature for rule: ${ruleErrorString(rule)}`,
          ),
        );
      } else if (message.startsWith(COST_LIMIT_PREFIX)) {
        errs.push(
          invalid(
            path,
            schema,
            `'${message}': no further validation rules will be run due to call cost exceeds limit for rule: ${ruleErrorString(rule)}`,
          ),
        );
        return { errs, budget: -1 };
      } else {
        errs.push(invalid(path, schema, `${message} evaluating rule: ${ruleErrorString(rule)}`));
      }
      continue;
    }
    if (result.value === true) continue;
    if (compiled.messageExpression === undefined) {
      errs.push(invalid(path, schema, ruleMessageOrDefault(rule)));
      continue;
    }
    const msg = evalMessageExpression(compiled.messageExpression, rule.messageExpression, bindings, budget);
    if (msg.kind === 'internal' || msg.kind === 'invalid') {
      errs.push(
        msg.kind === 'internal' ? internalError(path, msg.detail) : invalid(path, schema, msg.detail),
      );
      return { errs, budget: -1 };
    }
    // A message expression that failed falls back to the rule's message (upstream logs why).
    errs.push(invalid(path, schema, msg.kind === 'ok' ? msg.message : ruleMessageOrDefault(rule)));
    budget = msg.budget;
  }
  return { errs, budget };
}

type MessageResult =
  | { readonly kind: 'ok'; readonly message: string; readonly budget: number }
  | { readonly kind: 'failed'; readonly detail: string; readonly budget: number }
  | { readonly kind: 'invalid'; readonly detail: string }
  | { readonly kind: 'internal'; readonly detail: string };

/** evalMessageExpression (AM-05): the trimmed one-line message, or why there is none. */
function evalMessageExpression(
  program: CelProgram,
  source: string,
  bindings: Readonly<Record<string, CelInput>>,
  budget: number,
): MessageResult {
  const result = program.eval(bindings);
  if (result.cost > budget) {
    return {
      kind: 'invalid',
      detail:
        'messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run',
    };
  }
  const left = budget - result.cost;
  if ('error' in result) {
    if (result.error.message.startsWith(COST_LIMIT_PREFIX)) {
      return {
        kind: 'invalid',
        detail: `no further validation rules will be run due to call cost exceeds limit for messageExpression: ${goQuote(source)}`,
      };
    }
    return {
      kind: 'failed',
      detail: `messageExpression evaluation failed due to: ${result.error.message}`,
      budget: left,
    };
  }
  if (typeof result.value !== 'string') {
    return { kind: 'failed', detail: 'messageExpression failed to convert to string', budget: left };
  }
  const trimmed = result.value.trim();
  if (Buffer.byteLength(trimmed, 'utf8') > MAX_EVALUATED_MESSAGE_EXPRESSION_SIZE_BYTES) {
    return {
      kind: 'failed',
      detail: `messageExpression beyond allowable length of ${MAX_EVALUATED_MESSAGE_EXPRESSION_SIZE_BYTES}`,
      budget: left,
    };
  }
  if (trimmed.includes('\n')) {
    return { kind: 'failed', detail: 'messageExpression should not contain line breaks', budget: left };
  }
  if (trimmed.length === 0) {
    return {
      kind: 'failed',
      detail: 'messageExpression should evaluate to a non-empty string',
      budget: left,
    };
  }
  return { kind: 'ok', message: trimmed, budget: left };
}

/** MapIsCorrelatable: granular (the default) and atomic maps correlate old values by key. */
export function mapIsCorrelatable(mapType: unknown): boolean {
  return mapType === undefined || mapType === 'granular' || mapType === 'atomic';
}

function validateMap(
  node: RuleNode,
  path: Path,
  schema: JsonSchema,
  obj: Record<string, unknown>,
  old: Record<string, unknown> | undefined,
  walk: Walk,
): Walk {
  const { errs } = walk;
  let budget = walk.budget;
  const correlatable = mapIsCorrelatable(schema['x-kubernetes-map-type']);
  const apSchema = schemaAdditionalProperties(schema);
  if (node.additionalProperties !== undefined && apSchema !== undefined) {
    for (const [k, v] of Object.entries(obj)) {
      const oldV = correlatable && old !== undefined && Object.hasOwn(old, k) ? old[k] : undefined;
      const sub = validateNode(node.additionalProperties, keyPath(path, k), apSchema, v, oldV, budget);
      errs.push(...sub.errs);
      budget = sub.budget;
      if (budget < 0) return { errs, budget };
    }
  }
  const props = schemaProperties(schema);
  if (node.properties !== undefined && props !== undefined) {
    for (const [k, v] of Object.entries(obj)) {
      const sub = node.properties.get(k);
      const propSchema = props.get(k);
      if (sub === undefined || propSchema === undefined) continue;
      const oldV = correlatable && old !== undefined && Object.hasOwn(old, k) ? old[k] : undefined;
      const out = validateNode(sub, childPath(path, k), propSchema, v, oldV, budget);
      errs.push(...out.errs);
      budget = out.budget;
      if (budget < 0) return { errs, budget };
    }
  }
  return { errs, budget };
}

function validateArray(
  node: RuleNode,
  path: Path,
  schema: JsonSchema,
  obj: readonly unknown[],
  old: readonly unknown[] | undefined,
  walk: Walk,
): Walk {
  const { errs } = walk;
  let budget = walk.budget;
  const itemsSchema = schemaItems(schema);
  if (node.items === undefined || itemsSchema === undefined) return walk;
  // Only map-type lists correlate old items; others give no oldSelf to item rules.
  const oldItems = makeMapList(schema, old);
  for (let i = 0; i < obj.length; i++) {
    const out = validateNode(
      node.items,
      indexPath(path, i),
      itemsSchema,
      obj[i],
      oldItems.get(obj[i]),
      budget,
    );
    errs.push(...out.errs);
    budget = out.budget;
    if (budget < 0) return { errs, budget };
  }
  return { errs, budget };
}
