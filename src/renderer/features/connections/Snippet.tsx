import { useState } from 'react';

/** A block of config text with a copy button (the clipboard may be refused: the text stays selectable). */
export function Snippet({ title, text, testId }: { title: string; text: string; testId: string }) {
  const [copied, setCopied] = useState(false);
  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    } catch {
      setCopied(false);
    }
  }
  return (
    <div className="snippet">
      <div className="snippet-head">
        <span>{title}</span>
        <button type="button" className="ghost small" onClick={() => void copy()}>
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
      <pre data-testid={testId}>{text}</pre>
    </div>
  );
}
