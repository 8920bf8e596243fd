import { useEffect, useState } from 'react';
import type { BackupInfo } from '../../../shared/api';
import { Dialog } from '../../components/Dialog';
import { plural, shortTime } from '../../lib/format';
import { useData } from './store';
import './data.css';
import { TableHead } from '../../components/TableHead';
import { ServerSection } from './ServerSection';
import { StorageFacts } from './StorageFacts';

const REASONS: Record<string, string> = {
  manual: 'Backed up by you',
  daily: 'Daily',
  'before-migration': 'Before an update',
  'before-persona-delete': 'Before deleting a persona',
  'before-restore': 'Before a restore',
};

function size(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

const when = shortTime;

function counts(b: BackupInfo): string {
  const c = b.counts;
  return `${plural(c.personas, 'persona')}, ${plural(c.memories, 'memory', 'memories')}, ${plural(c.knowledgeSources, 'document')}, ${plural(c.messages, 'message')}`;
}

/** Settings → Data: backups (list, back up now, restore) and the integrity check. See docs/data-safety.md. */
export function DataSection() {
  const { backups, busy, integrity, load, backUp, check } = useData();
  const [restoring, setRestoring] = useState<BackupInfo | null>(null);
  useEffect(() => void load(), [load]);

  return (
    <div className="data-section" data-testid="data-view">
      <StorageFacts />
      <ServerSection />
      <p className="hint">
        Hearth backs up the whole database every day while it runs, before each update of its storage, and before a persona is deleted. Each
        backup is opened and checked right after it is written. They are kept in the <code>backups</code> folder of the data folder.
      </p>
      <div className="data-actions">
        <button className="primary" data-testid="backup-now" disabled={busy !== null} onClick={() => void backUp()}>
          {busy === 'backup' ? 'Backing up…' : 'Back up now'}
        </button>
        <button className="ghost" data-testid="check-integrity" disabled={busy !== null} onClick={() => void check()}>
          {busy === 'check' ? 'Checking…' : 'Check integrity'}
        </button>
      </div>
      {integrity && (
        <p className={integrity.ok ? 'hint' : 'field-error'} role="status" data-testid="integrity-result">
          {integrity.ok
            ? `Integrity check passed: ${integrity.checked} tables and indexes read back whole.`
            : `Integrity check found ${plural(integrity.problems.length, 'problem')}: ${integrity.problems.slice(0, 3).join('; ')}. Restore a backup below.`}
        </p>
      )}
      {backups.length === 0 ? (
        <p className="hint" data-testid="backups-empty">
          No backups yet.
        </p>
      ) : (
        <table className="backups" data-testid="backups-list">
          <TableHead columns={['When', 'Why', 'Size', 'Holds', 'Checked']} actions />
          <tbody>
            {backups.map((b) => (
              <tr key={b.id} data-testid="backup-row">
                <td>{when(b.createdAt)}</td>
                <td>{REASONS[b.reason] ?? b.reason}</td>
                <td>{size(b.bytes)}</td>
                <td data-testid="backup-counts">{counts(b)}</td>
                <td data-testid="backup-verified">{b.verified ? 'Verified' : `Problems: ${b.problems.join('; ')}`}</td>
                <td>
                  <button className="ghost" data-testid="restore-open" disabled={busy !== null} onClick={() => setRestoring(b)}>
                    Restore…
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {restoring && <RestoreDialog backup={restoring} onClose={() => setRestoring(null)} />}
    </div>
  );
}

function RestoreDialog({ backup, onClose }: { backup: BackupInfo; onClose(): void }) {
  const { busy, restore } = useData();
  return (
    <Dialog title="Restore this backup?" testId="restore-dialog" onClose={onClose}>
      <p data-testid="restore-replaces">
        Everything Hearth holds now — every persona, memory, document and chat — will be replaced by the backup from{' '}
        <strong>{when(backup.createdAt)}</strong> ({counts(backup)}).
      </p>
      <p className="hint">The current data is backed up first, so this restore can itself be undone from the list.</p>
      <div className="dialog-actions">
        <button className="ghost" onClick={onClose} disabled={busy === 'restore'}>
          Cancel
        </button>
        <button
          className="danger-solid"
          data-testid="restore-confirm"
          data-autofocus
          disabled={busy !== null}
          onClick={() => void restore(backup.id).then((ok) => ok && (onClose(), window.location.reload()))}
        >
          {busy === 'restore' ? 'Restoring…' : 'Replace with this backup'}
        </button>
      </div>
    </Dialog>
  );
}
