import { useState } from 'react';
import type { UserModelVersion } from '../../../shared/api';
import { getApi } from '../../api';
import { reportError } from '../../stores/toasts';
import { VersionList } from './VersionList';

/** The user-model editor's "History" disclosure for one dimension. */
export function DimensionHistory({ persona, dimension, onRestored }: { persona: string; dimension: string; onRestored(): void }) {
  const [versions, setVersions] = useState<UserModelVersion[] | null>(null);

  async function load() {
    try {
      setVersions(await getApi().invoke('userModel.history', { persona, dimension }));
    } catch (e) {
      reportError(e, 'Could not load the history');
    }
  }

  async function restore(version: number) {
    try {
      await getApi().invoke('userModel.restoreVersion', { persona, dimension, version });
      onRestored();
      await load();
    } catch (e) {
      reportError(e, 'Could not restore that version');
    }
  }

  return (
    <details className="history" data-testid="dimension-history" onToggle={(e) => (e.currentTarget.open ? void load() : undefined)}>
      <summary>History</summary>
      {versions && (
        <VersionList
          versions={versions.map((v) => ({
            ...v,
            text: v.content ?? '(deleted)',
            fields: v.confidence === null ? 'deleted' : `conf ${v.confidence}`,
            restorable: v.content !== null,
          }))}
          onRestore={(v) => void restore(v)}
        />
      )}
    </details>
  );
}
