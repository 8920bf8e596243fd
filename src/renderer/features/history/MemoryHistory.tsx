import { useState } from 'react';
import type { Memory, MemoryVersion } from '../../../shared/api';
import { getApi } from '../../api';
import { reportError } from '../../stores/toasts';
import { memoryFields } from './describe';
import { VersionList } from './VersionList';

/** The memory editor's "History" disclosure: loaded when opened, reloaded after a restore. */
export function MemoryHistory({ memory, onRestored }: { memory: Memory; onRestored(m: Memory): void }) {
  const [versions, setVersions] = useState<MemoryVersion[] | null>(null);

  async function load() {
    try {
      setVersions(await getApi().invoke('memories.history', { id: memory.id }));
    } catch (e) {
      reportError(e, 'Could not load the history');
    }
  }

  async function restore(version: number) {
    try {
      const m = await getApi().invoke('memories.restoreVersion', { id: memory.id, version });
      onRestored(m);
      await load();
    } catch (e) {
      reportError(e, 'Could not restore that version');
    }
  }

  return (
    <details className="history" data-testid="memory-history" onToggle={(e) => (e.currentTarget.open ? void load() : undefined)}>
      <summary>History</summary>
      {versions && (
        <VersionList
          versions={versions.map((v) => ({ ...v, text: v.content, fields: memoryFields(v), restorable: v.change !== 'delete' }))}
          onRestore={(v) => void restore(v)}
        />
      )}
    </details>
  );
}
