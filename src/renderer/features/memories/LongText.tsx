import { useState } from 'react';

/** Past this many characters or lines a memory is clamped: a 20,000-character memory must not fill four screens. */
const CLAMP_CHARS = 600;
const CLAMP_LINES = 8;

/** A memory's text, in its own direction (Hebrew, Arabic read right to left), clamped when long with a way to read it all. */
export function LongText({ text, onDoubleClick, testId = 'memory-content' }: { text: string; onDoubleClick?: () => void; testId?: string }) {
  const [open, setOpen] = useState(false);
  const long = text.length > CLAMP_CHARS || text.split('\n').length > CLAMP_LINES;
  return (
    <>
      <p className={`memory-content${long && !open ? ' clamped' : ''}`} data-testid={testId} dir="auto" onDoubleClick={onDoubleClick}>
        {text}
      </p>
      {long && (
        <button className="link small" data-testid="memory-expand" aria-expanded={open} onClick={() => setOpen(!open)}>
          {open ? 'Show less' : `Show all (${text.length.toLocaleString()} characters)`}
        </button>
      )}
    </>
  );
}
