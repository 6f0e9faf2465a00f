/**
 * `kubectl get customresourcedefinitions`: v1.27 serves CRDs with the default table convertor
 * (NAME, CREATED AT), as apiextensions-apiserver's registry does.
 */
import type { TableConvertor } from '../../machinery/table.js';
import { defaultTable } from './default.js';

export const customResourceDefinitionTable: TableConvertor = defaultTable;
