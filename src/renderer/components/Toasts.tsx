import { useEffect, useState } from 'react';
import { useNav } from '../stores/nav';
import { useToasts, type Toast } from '../stores/toasts';

function ToastItem({ toast }: { toast: Toast }) {
  const dismiss = useToasts((s) => s.dismiss);
  useEffect(() => {
    const t = setTimeout(() => dismiss(toast.id), toast.ttl);
    return () => clearTimeout(t);
  }, [toast.id, toast.ttl, dismiss]);
  return (
    <div className={`toast ${toast.kind}`} role={toast.kind === 'error' ? 'alert' : 'status'} data-testid="toast" data-kind={toast.kind}>
      <div className="toast-text">
        {toast.code && (
          <code className="toast-code" data-testid="toast-code">
            {toast.code}
          </code>
        )}
        <span data-testid="toast-message">{toast.message}</span>
      </div>
      {toast.action && (
        <button
          className="toast-action"
          data-testid="toast-action"
          onClick={() => {
            toast.action?.run();
            dismiss(toast.id);
          }}
        >
          {toast.action.label}
        </button>
      )}
      <button className="toast-close" aria-label="Dismiss" onClick={() => dismiss(toast.id)}>
        ×
      </button>
    </div>
  );
}

/**
 * How far above the window's bottom the toasts sit: on Chat, above the message box and Send (which
 * fill the bottom of the view, and grow when the box is resized), elsewhere 16 px.
 */
function useToastBottom(shown: number): number {
  const view = useNav((s) => s.view);
  const [bottom, setBottom] = useState(16);
  useEffect(() => {
    if (view !== 'chat' || shown === 0) {
      setBottom(16);
      return undefined;
    }
    const place = () => {
      const composer = document.querySelector('.chat-composer');
      setBottom(composer ? Math.max(16, window.innerHeight - composer.getBoundingClientRect().top + 8) : 16);
    };
    place();
    // The composer mounts with the view (a frame later) and changes height when its box is resized.
    const frame = requestAnimationFrame(place);
    const observer = new ResizeObserver(place);
    const composer = document.querySelector('.chat-composer');
    if (composer) observer.observe(composer);
    observer.observe(document.documentElement);
    return () => {
      cancelAnimationFrame(frame);
      observer.disconnect();
    };
    // Measured again whenever toasts come: the composer may have been drawn anew since (another persona).
  }, [view, shown]);
  return bottom;
}

export function Toasts() {
  const toasts = useToasts((s) => s.toasts);
  const bottom = useToastBottom(toasts.length);
  return (
    <div className="toasts" aria-live="polite" data-testid="toasts" style={{ bottom }}>
      {toasts.map((t) => (
        <ToastItem key={t.id} toast={t} />
      ))}
    </div>
  );
}
