import { isAppError } from '../../../shared/errors';
import { errorInfo } from '../../lib/errors';

interface Issue {
  path: string;
  message: string;
}

function issuesOf(e: unknown): Issue[] {
  if (!isAppError(e) || e.code !== 'invalid_args') return [];
  const details = e.details as { issues?: unknown } | undefined;
  if (!Array.isArray(details?.issues)) return [];
  return details.issues.filter((i): i is Issue => typeof i?.path === 'string' && typeof i?.message === 'string');
}

/** A refused save as messages next to the fields they concern; the rest for the whole section. */
export function fieldIssues<K extends string | number | symbol>(
  e: unknown,
  fieldFor: (path: string) => K | null,
): { fields: Partial<Record<K, string>>; form: string | null } {
  const fields: Partial<Record<K, string>> = {};
  const rest: string[] = [];
  const issues = issuesOf(e);
  for (const i of issues) {
    const k = fieldFor(i.path);
    if (k === null) rest.push(i.message);
    else fields[k] = fields[k] ?? capitalise(i.message);
  }
  if (issues.length === 0) rest.push(errorInfo(e).message);
  return { fields, form: rest.length ? rest.join(' ') : null };
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
