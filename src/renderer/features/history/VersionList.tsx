import type { ReactNode } from 'react';
import { shortTime } from '../../lib/format';
import { describeChange } from './describe';
import { TextDiff } from './TextDiff';

export interface VersionView {
  version: number;
  change: string;
  actor: string | null;
  reason: string | null;
  validFrom: string;
  validTo: string | null;
  text: string;
  /** Fields shown next to the text (category, importance, day / confidence). */
  fields: string;
  restorable: boolean;
}

/** Versions newest first, each with a diff against the one before it and, for past states, "Restore this version". */
export function VersionList({ versions, onRestore, extra }: { versions: VersionView[]; onRestore(v: number): void; extra?: ReactNode }) {
  const newestFirst = [...versions].reverse();
  return (
    <ol className="version-list" data-testid="version-list">
      {newestFirst.map((v) => {
        const prev = versions.find((p) => p.version === v.version - 1);
        const current = v.validTo === null;
        return (
          <li key={v.version} className="version" data-testid="version" data-version={v.version}>
            <div className="version-head">
              <span className="badge">v{v.version}</span>
              <span data-testid="version-change">{describeChange(v)}</span>
              <span className="muted small">{shortTime(v.validFrom)}</span>
              {current && <span className="chip">current</span>}
              <span className="spacer" />
              {!current && v.restorable && (
                <button className="ghost small" data-testid="version-restore" onClick={() => onRestore(v.version)}>
                  Restore this version
                </button>
              )}
            </div>
            {prev && prev.text !== v.text ? <TextDiff before={prev.text} after={v.text} /> : <p className="version-text">{v.text}</p>}
            <p className="muted small">
              {v.fields}
              {prev && prev.fields !== v.fields ? ` (was ${prev.fields})` : ''}
              {v.reason ? ` · ${v.reason}` : ''}
            </p>
          </li>
        );
      })}
      {extra}
    </ol>
  );
}
