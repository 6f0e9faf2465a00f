/** Column definitions shared by several kinds, and the container name/image cells. */
import type { TableColumnDefinition } from '../../machinery/table.js';
import { arrayAt, stringAt } from './read.js';

export interface ColumnOptions {
  readonly format?: string;
  /** 1 for columns shown only with `-o wide`. */
  readonly priority?: number;
}

export function column(
  name: string,
  type: string,
  description: string,
  options: ColumnOptions = {},
): TableColumnDefinition {
  return { name, type, format: options.format ?? '', description, priority: options.priority ?? 0 };
}

export const nameColumn = column('Name', 'string', 'Name of the object, unique within its namespace.', {
  format: 'name',
});

export const ageColumn = column('Age', 'string', 'Time elapsed since the object was created.');

export const containersColumn = column(
  'Containers',
  'string',
  'Names of the containers in the pod template.',
  {
    priority: 1,
  },
);

export const imagesColumn = column('Images', 'string', 'Images used by the containers in the pod template.', {
  priority: 1,
});

export function selectorColumn(description: string): TableColumnDefinition {
  return column('Selector', 'string', description, { priority: 1 });
}

/** Comma-joined container names and images of a pod spec, in declaration order. */
export function containerCells(podSpec: unknown): [names: string, images: string] {
  const containers = arrayAt(podSpec, 'containers');
  const names = containers.map((c) => stringAt(c, 'name')).join(',');
  const images = containers.map((c) => stringAt(c, 'image')).join(',');
  return [names, images];
}
