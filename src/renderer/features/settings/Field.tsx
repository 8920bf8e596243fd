import { useId, type InputHTMLAttributes, type ReactNode } from 'react';

interface Props extends Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value'> {
  label: string;
  value: string;
  error?: string | false;
  hint?: ReactNode;
  testId: string;
  onChange(v: string): void;
  /** Beside the input (a picker, a button). */
  after?: ReactNode;
}

/** A labelled input whose problem is written under it and announced with it. */
export function Field({ label, value, error, hint, testId, onChange, after, ...rest }: Props) {
  const id = useId();
  const described = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field ${error ? 'has-error' : ''}`}>
      <label htmlFor={id}>{label}</label>
      <div className="field-row">
        <input
          id={id}
          data-testid={testId}
          value={value}
          aria-invalid={error ? true : undefined}
          aria-describedby={described}
          onChange={(e) => onChange(e.target.value)}
          {...rest}
        />
        {after}
      </div>
      {error && (
        <p className="field-error" id={`${id}-error`} data-testid={`${testId}-error`}>
          {error}
        </p>
      )}
      {hint && (
        <p className="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
    </div>
  );
}
