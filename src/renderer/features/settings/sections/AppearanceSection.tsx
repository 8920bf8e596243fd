import { useState } from 'react';
import { applyTheme, currentTheme, type Theme } from '../../../lib/theme';

const CHOICES: { value: Theme; label: string }[] = [
  { value: 'system', label: 'System' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
];

/** Settings → Appearance: the theme, applied at once and remembered on this screen. */
export function AppearanceSection() {
  const [theme, setTheme] = useState<Theme>(currentTheme);
  return (
    <div className="settings-form">
    <fieldset className="radio-row" data-testid="theme-choice">
      <legend className="visually-hidden">Theme</legend>
      {CHOICES.map((c) => (
        <label key={c.value} className="radio">
          <input
            type="radio"
            name="theme"
            value={c.value}
            data-testid={`theme-${c.value}`}
            checked={theme === c.value}
            onChange={() => {
              applyTheme(c.value);
              setTheme(c.value);
            }}
          />
          {c.label}
        </label>
      ))}
    </fieldset>
      <p className="hint">System follows your computer’s light or dark setting. The choice is kept for this window’s app or browser.</p>
    </div>
  );
}
