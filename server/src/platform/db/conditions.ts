import { type Expression, type SqlBool, sql } from 'kysely';
import type { VisibilityScope } from '../auth/policy.js';

/**
 * SQL that is true for the owned records a scope lets a caller see (the policy's visibilityScope):
 * all for admins; else their own, the public ones when `isPublic` names a column, and those
 * `granted` allows when the scope includes grants. Columns are given as `alias.column`.
 */
export function visibleOwned(
  scope: VisibilityScope,
  columns: { ownerId: string; isPublic: string },
  granted?: (userId: string) => Expression<SqlBool>,
): Expression<SqlBool> {
  if (scope.all) return sql<SqlBool>`true`;
  const { ownerId, includePublic, includeGranted } = scope;
  const visible: Expression<SqlBool>[] = [];
  if (ownerId) visible.push(sql<SqlBool>`${sql.ref(columns.ownerId)} = ${ownerId}`);
  if (includePublic) visible.push(sql<SqlBool>`${sql.ref(columns.isPublic)}`);
  if (includeGranted && ownerId && granted) visible.push(granted(ownerId));
  return visible.length ? sql<SqlBool>`(${sql.join(visible, sql` or `)})` : sql<SqlBool>`false`;
}

/**
 * SQL that is true when the text column contains `text`, in any case: the filter of every picker.
 * Written as LIKE so that a trigram index on the lower-cased column can answer it.
 */
export function containsText(column: string, text: string): Expression<SqlBool> {
  return sql<SqlBool>`lower(${sql.ref(column)}) like ${containing(text)}`;
}

/** The same for a column that holds its text lower-cased already (as PostgreSQL's lower() makes it). */
export function lowerCaseContainsText(column: string, text: string): Expression<SqlBool> {
  return sql<SqlBool>`${sql.ref(column)} like ${containing(text)}`;
}

/**
 * The LIKE pattern of the texts containing `text` lower-cased: its \, % and _ escaped (LIKE's
 * escape character is \), so each matches itself. Lower-cased by the database, as the column is.
 */
function containing(text: string) {
  return sql<string>`'%' || lower(${text.replace(/[\\%_]/g, '\\$&')}) || '%'`;
}
