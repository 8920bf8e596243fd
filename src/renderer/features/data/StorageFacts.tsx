import { useEffect, useState } from 'react';
import type { AppInfo } from '../../../shared/api';
import { getApi } from '../../api';
import { reportError } from '../../stores/toasts';
import { useSettings } from '../settings/store';

/**
 * Settings → Data, first lines: the data folder's path (to find backups, or to copy it) and
 * "durable commits" (docs/durability.md), which applies at once. On a PostgreSQL server the
 * server's own durability settings apply, so the switch is not offered there.
 */
export function StorageFacts() {
  const [info, setInfo] = useState<AppInfo | null>(null);
  const settings = useSettings((s) => s.settings);
  // The box shows the choice at once; a refused save puts it back.
  const [pending, setPending] = useState<boolean | null>(null);
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
      <div className="field">
        <label htmlFor="data-folder-path">Data folder</label>
        <input id="data-folder-path" data-testid="data-folder-path" readOnly value={info?.dataDir ?? ''} placeholder="…" dir="ltr" />
        <p className="hint">Your database, backups and uploaded files live here. Copy this path to find them.</p>
      </div>
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
