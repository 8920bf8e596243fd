import { getApi } from '../../../api';
import { applyTheme, currentTheme, type Theme } from '../../../lib/theme';
import { reportError } from '../../../stores/toasts';
import { useSettings } from '../store';

const CHOICES: { value: Theme; label: string }[] = [
  { value: 'system', label: 'System' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
];

/** Settings → Appearance: the theme, applied at once and kept with the data (lib/theme.ts). */
export function AppearanceSection() {
  const theme = useSettings((s) => s.settings?.theme) ?? currentTheme();
  const choose = (value: Theme) => {
    applyTheme(value);
    const before = useSettings.getState().settings;
    if (before) useSettings.setState({ settings: { ...before, theme: value } });
    getApi()
      .invoke('settings.set', { theme: value })
      .then((settings) => useSettings.setState({ settings }))
      .catch((e: unknown) => {
        if (before) {
          useSettings.setState({ settings: before });
          applyTheme(before.theme);
        }
        reportError(e, 'Could not keep the theme');
      });
  };
  return (
    <div className="settings-form">
      <fieldset className="radio-row" data-testid="theme-choice">
        <legend className="visually-hidden">Theme</legend>
        {CHOICES.map((c) => (
          <label key={c.value} className="radio">
            <input type="radio" name="theme" value={c.value} data-testid={`theme-${c.value}`} checked={theme === c.value} onChange={() => choose(c.value)} />
            {c.label}
          </label>
        ))}
      </fieldset>
      <p className="hint">System follows your computer’s light or dark setting. The choice is kept with your data, in every window.</p>
    </div>
  );
}
