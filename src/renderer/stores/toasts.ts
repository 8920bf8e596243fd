import { create } from 'zustand';
import type { ErrorCode } from '../../shared/errors';
import { errorInfo } from '../lib/errors';

export interface Toast {
  id: number;
  kind: 'error' | 'info';
  code?: ErrorCode;
  message: string;
  action?: { label: string; run: () => void };
  /** Milliseconds before it disappears on its own. */
  ttl: number;
}

interface ToastState {
  toasts: Toast[];
  nextId: number;
  push(t: Omit<Toast, 'id' | 'ttl'> & { ttl?: number }): number;
  dismiss(id: number): void;
}

export const useToasts = create<ToastState>((set, get) => ({
  toasts: [],
  nextId: 1,
  push(t) {
    const id = get().nextId;
    const ttl = t.ttl ?? (t.kind === 'error' ? 8000 : 4000);
    set((s) => ({ nextId: s.nextId + 1, toasts: [...s.toasts.slice(-4), { ...t, id, ttl }] }));
    return id;
  },
  dismiss(id) {
    set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) }));
  },
}));

/** Shows any failure as a readable toast with its error code; never swallows it silently. */
export function reportError(e: unknown, context?: string): void {
  const { code, message } = errorInfo(e);
  useToasts.getState().push({ kind: 'error', code, message: context ? `${context}: ${message}` : message });
}

export function notify(message: string): void {
  useToasts.getState().push({ kind: 'info', message });
}
