/**
 * The standard declarations of cel-go v0.12.7 (checker/standard.go): the type-name identifiers
 * and every operator and built-in function overload, with cel-go's overload ids (they key the cost
 * estimator and the disabled cross-type numeric comparisons).
 */
import { type FunctionDecl, fn, globalOverload, memberOverload } from './decls.js';
import {
  BOOL,
  BYTES,
  DOUBLE,
  DURATION,
  DYN,
  INT,
  NULL,
  STRING,
  TIMESTAMP,
  UINT,
  type CheckedType,
  listOf,
  mapOf,
  typeOf,
  typeParam,
} from './types.js';

const A = typeParam('A');
const B = typeParam('B');
const LIST_A = listOf(A);
const MAP_AB = mapOf(A, B);

/** Identifiers for the type names: `int` is `type(int)`, `list` is `type(list(A))`, … */
export const standardIdents: ReadonlyMap<string, CheckedType> = new Map<string, CheckedType>([
  ['int', typeOf(INT)],
  ['uint', typeOf(UINT)],
  ['bool', typeOf(BOOL)],
  ['double', typeOf(DOUBLE)],
  ['bytes', typeOf(BYTES)],
  ['string', typeOf(STRING)],
  ['list', typeOf(LIST_A)],
  ['map', typeOf(MAP_AB)],
  ['null_type', typeOf(NULL)],
  ['type', typeOf(typeOf(undefined))],
]);

/** The ordering operators, in cel-go's overload order (same-type first per operand type). */
function relation(op: string, prefix: string): FunctionDecl {
  const pairs: [string, CheckedType, CheckedType][] = [
    ['bool', BOOL, BOOL],
    ['int64', INT, INT],
    ['int64_double', INT, DOUBLE],
    ['int64_uint64', INT, UINT],
    ['uint64', UINT, UINT],
    ['uint64_double', UINT, DOUBLE],
    ['uint64_int64', UINT, INT],
    ['double', DOUBLE, DOUBLE],
    ['double_int64', DOUBLE, INT],
    ['double_uint64', DOUBLE, UINT],
    ['string', STRING, STRING],
    ['bytes', BYTES, BYTES],
    ['timestamp', TIMESTAMP, TIMESTAMP],
    ['duration', DURATION, DURATION],
  ];
  return fn(op, ...pairs.map(([suffix, l, r]) => globalOverload(`${prefix}_${suffix}`, [l, r], BOOL)));
}

/** cel-go's ids for the cross-type comparisons disabled unless CrossTypeNumericComparisons. */
export const crossTypeNumericComparisonOverloads: ReadonlySet<string> = new Set(
  ['less', 'less_equals', 'greater', 'greater_equals'].flatMap((p) =>
    ['double_int64', 'double_uint64', 'int64_double', 'int64_uint64', 'uint64_double', 'uint64_int64'].map(
      (s) => `${p}_${s}`,
    ),
  ),
);

function timeGetter(name: string, id: string, withDuration?: string): FunctionDecl {
  const overloads = [
    memberOverload(id, [TIMESTAMP], INT),
    memberOverload(
      id === 'timestamp_to_seconds' ? 'timestamp_to_seconds_tz' : `${id}_with_tz`,
      [TIMESTAMP, STRING],
      INT,
    ),
  ];
  if (withDuration !== undefined) overloads.push(memberOverload(withDuration, [DURATION], INT));
  return fn(name, ...overloads);
}

export const standardFunctions: readonly FunctionDecl[] = [
  fn('_?_:_', globalOverload('conditional', [BOOL, A, A], A, ['A'])),
  fn('_&&_', globalOverload('logical_and', [BOOL, BOOL], BOOL)),
  fn('_||_', globalOverload('logical_or', [BOOL, BOOL], BOOL)),
  fn('!_', globalOverload('logical_not', [BOOL], BOOL)),
  fn('@not_strictly_false', globalOverload('not_strictly_false', [BOOL], BOOL)),
  fn('_==_', globalOverload('equals', [A, A], BOOL, ['A'])),
  fn('_!=_', globalOverload('not_equals', [A, A], BOOL, ['A'])),
  fn(
    '_-_',
    globalOverload('subtract_int64', [INT, INT], INT),
    globalOverload('subtract_uint64', [UINT, UINT], UINT),
    globalOverload('subtract_double', [DOUBLE, DOUBLE], DOUBLE),
    globalOverload('subtract_timestamp_timestamp', [TIMESTAMP, TIMESTAMP], DURATION),
    globalOverload('subtract_timestamp_duration', [TIMESTAMP, DURATION], TIMESTAMP),
    globalOverload('subtract_duration_duration', [DURATION, DURATION], DURATION),
  ),
  fn(
    '_*_',
    globalOverload('multiply_int64', [INT, INT], INT),
    globalOverload('multiply_uint64', [UINT, UINT], UINT),
    globalOverload('multiply_double', [DOUBLE, DOUBLE], DOUBLE),
  ),
  fn(
    '_/_',
    globalOverload('divide_int64', [INT, INT], INT),
    globalOverload('divide_uint64', [UINT, UINT], UINT),
    globalOverload('divide_double', [DOUBLE, DOUBLE], DOUBLE),
  ),
  fn(
    '_%_',
    globalOverload('modulo_int64', [INT, INT], INT),
    globalOverload('modulo_uint64', [UINT, UINT], UINT),
  ),
  fn(
    '_+_',
    globalOverload('add_int64', [INT, INT], INT),
    globalOverload('add_uint64', [UINT, UINT], UINT),
    globalOverload('add_double', [DOUBLE, DOUBLE], DOUBLE),
    globalOverload('add_string', [STRING, STRING], STRING),
    globalOverload('add_bytes', [BYTES, BYTES], BYTES),
    globalOverload('add_list', [LIST_A, LIST_A], LIST_A, ['A']),
    globalOverload('add_timestamp_duration', [TIMESTAMP, DURATION], TIMESTAMP),
    globalOverload('add_duration_timestamp', [DURATION, TIMESTAMP], TIMESTAMP),
    globalOverload('add_duration_duration', [DURATION, DURATION], DURATION),
  ),
  fn('-_', globalOverload('negate_int64', [INT], INT), globalOverload('negate_double', [DOUBLE], DOUBLE)),
  fn(
    '_[_]',
    globalOverload('index_list', [LIST_A, INT], A, ['A']),
    globalOverload('index_map', [MAP_AB, A], B, ['A', 'B']),
  ),
  fn(
    'size',
    memberOverload('string_size', [STRING], INT),
    memberOverload('bytes_size', [BYTES], INT),
    memberOverload('list_size', [LIST_A], INT, ['A']),
    memberOverload('map_size', [MAP_AB], INT, ['A', 'B']),
    globalOverload('size_string', [STRING], INT),
    globalOverload('size_bytes', [BYTES], INT),
    globalOverload('size_list', [LIST_A], INT, ['A']),
    globalOverload('size_map', [MAP_AB], INT, ['A', 'B']),
  ),
  fn(
    '@in',
    globalOverload('in_list', [A, LIST_A], BOOL, ['A']),
    globalOverload('in_map', [A, MAP_AB], BOOL, ['A', 'B']),
  ),
  fn(
    'in',
    globalOverload('in_list', [A, LIST_A], BOOL, ['A']),
    globalOverload('in_map', [A, MAP_AB], BOOL, ['A', 'B']),
  ),
  fn('type', globalOverload('type', [A], typeOf(A), ['A'])),
  fn(
    'int',
    globalOverload('int64_to_int64', [INT], INT),
    globalOverload('uint64_to_int64', [UINT], INT),
    globalOverload('double_to_int64', [DOUBLE], INT),
    globalOverload('string_to_int64', [STRING], INT),
    globalOverload('timestamp_to_int64', [TIMESTAMP], INT),
    globalOverload('duration_to_int64', [DURATION], INT),
  ),
  fn(
    'uint',
    globalOverload('uint64_to_uint64', [UINT], UINT),
    globalOverload('int64_to_uint64', [INT], UINT),
    globalOverload('double_to_uint64', [DOUBLE], UINT),
    globalOverload('string_to_uint64', [STRING], UINT),
  ),
  fn(
    'double',
    globalOverload('double_to_double', [DOUBLE], DOUBLE),
    globalOverload('int64_to_double', [INT], DOUBLE),
    globalOverload('uint64_to_double', [UINT], DOUBLE),
    globalOverload('string_to_double', [STRING], DOUBLE),
  ),
  fn('bool', globalOverload('bool_to_bool', [BOOL], BOOL), globalOverload('string_to_bool', [STRING], BOOL)),
  fn(
    'string',
    globalOverload('string_to_string', [STRING], STRING),
    globalOverload('bool_to_string', [BOOL], STRING),
    globalOverload('int64_to_string', [INT], STRING),
    globalOverload('uint64_to_string', [UINT], STRING),
    globalOverload('double_to_string', [DOUBLE], STRING),
    globalOverload('bytes_to_string', [BYTES], STRING),
    globalOverload('timestamp_to_string', [TIMESTAMP], STRING),
    globalOverload('duration_to_string', [DURATION], STRING),
  ),
  fn(
    'bytes',
    globalOverload('bytes_to_bytes', [BYTES], BYTES),
    globalOverload('string_to_bytes', [STRING], BYTES),
  ),
  fn(
    'timestamp',
    globalOverload('timestamp_to_timestamp', [TIMESTAMP], TIMESTAMP),
    globalOverload('string_to_timestamp', [STRING], TIMESTAMP),
    globalOverload('int64_to_timestamp', [INT], TIMESTAMP),
  ),
  fn(
    'duration',
    globalOverload('duration_to_duration', [DURATION], DURATION),
    globalOverload('string_to_duration', [STRING], DURATION),
    globalOverload('int64_to_duration', [INT], DURATION),
  ),
  fn('dyn', globalOverload('to_dyn', [A], DYN, ['A'])),
  fn('contains', memberOverload('contains_string', [STRING, STRING], BOOL)),
  fn('endsWith', memberOverload('ends_with_string', [STRING, STRING], BOOL)),
  fn('matches', memberOverload('matches_string', [STRING, STRING], BOOL)),
  fn('startsWith', memberOverload('starts_with_string', [STRING, STRING], BOOL)),
  timeGetter('getFullYear', 'timestamp_to_year'),
  timeGetter('getMonth', 'timestamp_to_month'),
  timeGetter('getDayOfYear', 'timestamp_to_day_of_year'),
  timeGetter('getDayOfMonth', 'timestamp_to_day_of_month'),
  timeGetter('getDate', 'timestamp_to_day_of_month_1_based'),
  timeGetter('getDayOfWeek', 'timestamp_to_day_of_week'),
  timeGetter('getHours', 'timestamp_to_hours', 'duration_to_hours'),
  timeGetter('getMinutes', 'timestamp_to_minutes', 'duration_to_minutes'),
  timeGetter('getSeconds', 'timestamp_to_seconds', 'duration_to_seconds'),
  timeGetter('getMilliseconds', 'timestamp_to_milliseconds', 'duration_to_milliseconds'),
  relation('_<_', 'less'),
  relation('_<=_', 'less_equals'),
  relation('_>_', 'greater'),
  relation('_>=_', 'greater_equals'),
];
