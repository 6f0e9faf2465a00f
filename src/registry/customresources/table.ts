/**
 * `kubectl get` for custom resources: Name plus the version's additionalPrinterColumns (an Age
 * column when it has none), as apiextensions-apiserver's tableconvertor and
 * serveDefaultColumnsIfEmpty (v0.27) print them.
 */
import { evalJsonPath, jsonPathText, parseJsonPath } from '../../machinery/jsonpath.js';
import type { JsonPathStep } from '../../machinery/jsonpath.js';
import type { TableConvertor } from '../../machinery/table.js';
import type { JsonValue } from '../../util/json.js';
import { humanDuration, parseTimestamp } from '../printers/age.js';
import { column, nameColumn } from '../printers/columns.js';
import type { CrdColumn } from './crd-view.js';

const ageColumn: CrdColumn = {
  name: 'Age',
  type: 'date',
  format: '',
  description: 'When the object was created, in UTC.',
  priority: 0,
  jsonPath: '.metadata.creationTimestamp',
};

/** A cell of a non-string column, typed as the column says (tableconvertor's cellForJSONValue). */
function typedCell(type: string, value: JsonValue, now: Date): JsonValue {
  if (value === null) return null;
  switch (type) {
    case 'integer':
      return typeof value === 'number' ? Math.trunc(value) : null;
    case 'number':
      return typeof value === 'number' ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    case 'string':
      return typeof value === 'string' ? value : null;
    case 'date': {
      if (typeof value !== 'string') return null;
      if (value === '') return '<unknown>';
      const ms = parseTimestamp(value);
      return ms === undefined ? '<invalid>' : humanDuration(now.getTime() - ms);
    }
    default:
      return null;
  }
}

export function customResourceTable(columns: readonly CrdColumn[]): TableConvertor {
  const cols = columns.length === 0 ? [ageColumn] : columns;
  const paths: (readonly JsonPathStep[] | undefined)[] = cols.map((c) => {
    try {
      return parseJsonPath(c.jsonPath);
    } catch {
      return undefined; // upstream leaves an unparsable column empty
    }
  });
  return {
    columns: [
      nameColumn,
      ...cols.map((c) =>
        column(
          c.name,
          c.type,
          c.description !== ''
            ? c.description
            : `Custom resource definition column (in JSONPath format): ${c.jsonPath}`,
          { format: c.format, priority: c.priority },
        ),
      ),
    ],
    cells(obj, now) {
      const cells: JsonValue[] = [obj.metadata.name ?? ''];
      cols.forEach((c, i) => {
        const path = paths[i];
        const found = path === undefined ? [] : evalJsonPath(path, obj);
        const value = found[0];
        if (value === undefined) cells.push(null);
        else if (c.type === 'string') cells.push(jsonPathText(value));
        else cells.push(typedCell(c.type, value, now));
      });
      return cells;
    },
  };
}
