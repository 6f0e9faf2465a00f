/**
 * `kubectl get` for RBAC (upstream printers.go, release-1.27): roles and cluster roles keep the
 * default NAME, CREATED AT table; bindings print NAME, ROLE (`Kind/name`), AGE, and with `-o wide`
 * the USERS, GROUPS and SERVICEACCOUNTS (`namespace/name`) they bind.
 */
import type { TableColumnDefinition, TableConvertor } from '../../machinery/table.js';
import { translateTimestampSince } from './age.js';
import { ageColumn, column, nameColumn } from './columns.js';
import { defaultTable } from './default.js';
import { arrayAt, stringAt } from './read.js';

/** Upstream registers no printer for roles: the default table convertor answers. */
export const roleTable: TableConvertor = defaultTable;
export const clusterRoleTable: TableConvertor = defaultTable;

/** Upstream rbac.SubjectsStrings: users, groups and service accounts (`namespace/name`), in order. */
export function subjectsStrings(subjects: readonly unknown[]): {
  users: string[];
  groups: string[];
  serviceAccounts: string[];
} {
  const users: string[] = [];
  const groups: string[] = [];
  const serviceAccounts: string[] = [];
  for (const s of subjects) {
    const name = stringAt(s, 'name');
    switch (stringAt(s, 'kind')) {
      case 'ServiceAccount':
        serviceAccounts.push(`${stringAt(s, 'namespace')}/${name}`);
        break;
      case 'User':
        users.push(name);
        break;
      case 'Group':
        groups.push(name);
        break;
      default:
      // Other kinds are left out of every column.
    }
  }
  return { users, groups, serviceAccounts };
}

function bindingColumns(kindWord: string): TableColumnDefinition[] {
  return [
    nameColumn,
    column('Role', 'string', 'The role the subjects are granted, as Kind/name.'),
    ageColumn,
    column('Users', 'string', `User subjects of the ${kindWord}.`, { priority: 1 }),
    column('Groups', 'string', `Group subjects of the ${kindWord}.`, { priority: 1 }),
    column('ServiceAccounts', 'string', `Service account subjects of the ${kindWord}, as namespace/name.`, {
      priority: 1,
    }),
  ];
}

function bindingTable(kindWord: string): TableConvertor {
  return {
    columns: bindingColumns(kindWord),
    cells(obj, now) {
      const { users, groups, serviceAccounts } = subjectsStrings(arrayAt(obj, 'subjects'));
      return [
        stringAt(obj, 'metadata', 'name'),
        `${stringAt(obj, 'roleRef', 'kind')}/${stringAt(obj, 'roleRef', 'name')}`,
        translateTimestampSince(obj.metadata.creationTimestamp, now),
        users.join(', '),
        groups.join(', '),
        serviceAccounts.join(', '),
      ];
    },
  };
}

export const roleBindingTable: TableConvertor = bindingTable('role binding');
export const clusterRoleBindingTable: TableConvertor = bindingTable('cluster role binding');
