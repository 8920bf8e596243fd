import { useEffect, useState } from 'react';
import type { AppInfo } from '../../../shared/api';
import { getApi } from '../../api';
import { reportError } from '../../stores/toasts';
import { useSettings } from '../settings/store';

/**
 * Settings → Data, first lines: where the data folder is (the desktop app opens it; a page never gets its path) and
 * "durable commits" (docs/durability.md), which applies at once. On a PostgreSQL server the
 * server's own durability settings apply, so the switch is not offered there.
 */
export function StorageFacts() {
  const [info, setInfo] = useState<AppInfo | null>(null);
  const settings = useSettings((s) => s.settings);
  // The box shows the choice at once; a refused save puts it back.
  const [pending, setPending] = useState<boolean | null>(null);
  const show = window.hearth?.showDataFolder;
  useEffect(() => {
    void useSettings.getState().load();
    getApi()
      .invoke('app.info', {})
      .then(setInfo, (e) => reportError(e, 'Could not read where Hearth keeps its data'));
  }, []);

  async function setDurable(on: boolean) {
    setPending(on);
    const r = await useSettings.getState().save({ durableCommits: on }, on ? 'Durable commits on: every save waits for the disk.' : 'Durable commits off.');
    setPending(null);
    if (!r.ok) reportError(r.error, 'Could not change durable commits');
  }

  return (
    <div className="storage-facts">
      {info?.storage !== 'memory' && (
        <div className="field" data-testid="data-folder">
          <span className="field-label">Data folder</span>
          {show ? (
            <div className="field-row">
              <p className="hint">Your database, backups and uploaded files live in Hearth's data folder.</p>
              <button type="button" data-testid="data-folder-show" onClick={() => void show().catch((e: unknown) => reportError(e, 'Could not open the data folder'))}>
                Show in folder
              </button>
            </div>
          ) : (
            <p className="hint" data-testid="data-folder-where">
              Your database, backups and uploaded files live in the data folder on the computer running Hearth: the one it was started with
              (--data-dir or HEARTH_DATA_DIR, else Hearth's usual folder there). The page is not told its path.
            </p>
          )}
        </div>
      )}
      {settings && info?.database.kind !== 'server' && (
        <div className="field">
          <label className="switch">
            <input
              type="checkbox"
              data-testid="durable-commits"
              checked={pending ?? settings.durableCommits}
              disabled={pending !== null || !info}
              onChange={(e) => void setDurable(e.target.checked)}
            />
            Durable commits
          </label>
          <p className="hint">
            On: each save waits until it is on the disk, so even a power cut loses nothing (saves are a little slower). Off: a power cut may lose
            the last second of changes; a crash of Hearth itself loses nothing either way.
          </p>
        </div>
      )}
    </div>
  );
}
