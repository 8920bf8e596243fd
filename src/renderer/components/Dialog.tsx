import { useEffect, useId, useRef, type ReactNode } from 'react';

interface Props {
  title: string;
  testId: string;
  onClose(): void;
  children: ReactNode;
}

/**
 * A modal on the native <dialog>: focus is trapped and Esc closes it. Focus
 * starts on the element marked `data-autofocus` (else the first control) and
 * goes back where it was when the dialog closes.
 */
export function Dialog({ title, testId, onClose, children }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const d = ref.current;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (d && !d.open) d.showModal();
    d?.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    return () => {
      d?.close();
      if (previous?.isConnected) previous.focus();
    };
  }, []);
  return (
    <dialog
      ref={ref}
      className="dialog"
      data-testid={testId}
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <h2 id={titleId}>{title}</h2>
      {children}
    </dialog>
  );
}
