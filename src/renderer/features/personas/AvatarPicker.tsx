import { useId, useState } from 'react';
import { avatarOf, avatarProblem } from '../../../shared/avatar';

/** Common choices; any other emoji can be typed or pasted in the box below them. */
export const AVATAR_CHOICES = [
  '🙂', '😎', '🤓', '🧑‍🏫', '🧑‍💻', '🧑‍🍳', '🧑‍🎨', '🧑‍🔬',
  '📚', '✍️', '💼', '📈', '🎵', '🎨', '🌱', '🏡',
  '✈️', '🏃', '🧘', '🩺', '⚽', '🐱', '☕', '⭐',
];

interface Props {
  /** The persona's name as typed so far: "use the name's first letter" shows what that gives. */
  name: string;
  /** null: the name's first character. May be an invalid typed value; `avatarInputProblem` says. */
  value: string | null;
  onChange(value: string | null): void;
}

/** What is wrong with a picked or typed avatar, or null (the same rule the core enforces). */
export function avatarInputProblem(value: string | null): string | null {
  return value === null ? null : avatarProblem(value);
}

/**
 * A radio group (arrow keys move and choose, as with any radio group): the name's first letter or one of
 * the common emoji; the text box takes any other emoji or one or two letters. The preview shows the choice.
 */
export function AvatarPicker({ name, value, onChange }: Props) {
  const group = useId();
  const inGrid = value !== null && AVATAR_CHOICES.includes(value);
  const [typed, setTyped] = useState(value !== null && !inGrid ? value : '');
  const problem = avatarInputProblem(value);
  const preview = problem ? '?' : avatarOf({ name, avatar: value });

  return (
    <fieldset className="avatar-picker" data-testid="avatar-picker">
      <legend>Avatar</legend>
      <div className="avatar-picker-top">
        <span className="persona-avatar avatar-preview" data-testid="avatar-preview" aria-label={`Avatar: ${preview}`} role="img">
          {preview}
        </span>
        <label className="avatar-choice avatar-initial">
          <input
            type="radio"
            name={group}
            className="visually-hidden"
            data-testid="avatar-initial"
            checked={value === null}
            onChange={() => {
              setTyped('');
              onChange(null);
            }}
          />
          <span>Use the name’s first letter</span>
        </label>
      </div>
      <div className="avatar-grid" role="presentation">
        {AVATAR_CHOICES.map((emoji) => (
          <label key={emoji} className="avatar-choice" title={emoji}>
            <input
              type="radio"
              name={group}
              className="visually-hidden"
              data-testid="avatar-choice"
              value={emoji}
              checked={value === emoji}
              onChange={() => {
                setTyped('');
                onChange(emoji);
              }}
            />
            <span aria-hidden>{emoji}</span>
            <span className="visually-hidden">{emoji}</span>
          </label>
        ))}
      </div>
      <label className="avatar-typed">
        <span>Or type or paste one emoji, or one or two letters</span>
        <input
          data-testid="avatar-input"
          value={typed}
          maxLength={40}
          aria-invalid={!!problem && typed !== ''}
          onChange={(e) => {
            setTyped(e.target.value);
            onChange(e.target.value.trim() || null);
          }}
        />
      </label>
      {problem && typed !== '' && (
        <p className="field-error" role="alert" data-testid="avatar-error">
          {problem}
        </p>
      )}
    </fieldset>
  );
}
