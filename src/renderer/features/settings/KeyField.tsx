interface Props {
  id: string;
  label: string;
  status: 'set' | 'not set';
  value: string;
  onChange(v: string): void;
  onClear(): void;
}

/**
 * A write-only secret: the field starts empty whatever is stored (the core never
 * sends the key back); only "set" / "not set" is shown.
 */
export function KeyField({ id, label, status, value, onChange, onClear }: Props) {
  return (
    <label className="key-field">
      {label}
      <span className="key-row">
        <input
          type="password"
          data-testid={`${id}-key-input`}
          autoComplete="new-password"
          value={value}
          placeholder={status === 'set' ? 'Stored — type to replace' : 'Paste a key'}
          onChange={(e) => onChange(e.target.value)}
        />
        <span className={`badge ${status === 'set' ? 'ok' : 'muted'}`} data-testid={`${id}-key-status`}>
          {status}
        </span>
        {status === 'set' && (
          <button type="button" className="ghost small danger" data-testid={`${id}-key-clear`} onClick={onClear}>
            Clear key
          </button>
        )}
      </span>
    </label>
  );
}
