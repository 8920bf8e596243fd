import { useId, useState } from 'react';

interface Props {
  id: string;
  label: string;
  status: 'set' | 'not set';
  value: string;
  error?: string | false;
  onChange(v: string): void;
  onClear(): Promise<void>;
}

/**
 * A write-only secret: the field starts empty whatever is stored (the core never
 * sends the key back); only "set" / "not set" is shown. Clearing asks first:
 * a cleared key cannot be brought back from here.
 */
export function KeyField({ id, label, status, value, error, onChange, onClear }: Props) {
  const inputId = useId();
  const [asking, setAsking] = useState(false);
  return (
    <div className={`field key-field ${error ? 'has-error' : ''}`}>
      <label htmlFor={inputId}>{label}</label>
      <div className="field-row">
        <input
          id={inputId}
          type="password"
          data-testid={`${id}-key-input`}
          autoComplete="new-password"
          value={value}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${inputId}-error` : undefined}
          placeholder={status === 'set' ? 'Stored — type to replace' : 'Paste a key'}
          onChange={(e) => onChange(e.target.value)}
        />
        <span className={`badge ${status === 'set' ? 'ok' : 'muted'}`} data-testid={`${id}-key-status`}>
          {status}
        </span>
        {status === 'set' && !asking && (
          <button type="button" className="ghost small danger" data-testid={`${id}-key-clear`} onClick={() => setAsking(true)}>
            Clear key
          </button>
        )}
        {asking && (
          <span className="inline-confirm" role="group" aria-label="Clear the stored key?">
            <button
              type="button"
              className="danger-solid small"
              data-testid={`${id}-key-clear-confirm`}
              autoFocus
              onClick={() => void onClear().finally(() => setAsking(false))}
            >
              Clear it
            </button>
            <button type="button" className="ghost small" onClick={() => setAsking(false)}>
              Keep
            </button>
          </span>
        )}
      </div>
      {error && (
        <p className="field-error" id={`${inputId}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}
