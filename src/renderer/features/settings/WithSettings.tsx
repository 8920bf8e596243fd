import type { ReactElement } from 'react';
import type { SettingsView } from '../../../shared/api';
import { useSettings } from './store';

/** Renders its child once the stored settings are loaded (SettingsView loads them). */
export function WithSettings({ children }: { children: (s: SettingsView) => ReactElement }) {
  const settings = useSettings((s) => s.settings);
  return settings ? children(settings) : <p className="muted">Loading settings…</p>;
}
