import { useEffect, useRef, type ReactNode } from 'react';

interface Props {
  title: string;
  testId: string;
  onClose(): void;
  children: ReactNode;
}

/** A modal on the native <dialog>: focus is trapped and Esc closes it. */
export function Dialog({ title, testId, onClose, children }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
    return () => d?.close();
  }, []);
  return (
    <dialog
      ref={ref}
      className="dialog"
      data-testid={testId}
      aria-label={title}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <h2>{title}</h2>
      {children}
    </dialog>
  );
}
