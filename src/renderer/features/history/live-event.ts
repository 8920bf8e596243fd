import { useEffect } from 'react';
import { getApi } from '../../api';

/** Calls `fn` (debounced) when memories or the user model change anywhere: the activity view stays current. */
export function useLiveEvent(fn: () => void): void {
  useEffect(() => {
    let t: ReturnType<typeof setTimeout> | null = null;
    const later = () => {
      if (t) clearTimeout(t);
      t = setTimeout(fn, 400);
    };
    const offs = [getApi().on('memories.changed', later), getApi().on('userModel.changed', later)];
    return () => {
      if (t) clearTimeout(t);
      offs.forEach((off) => off());
    };
  }, [fn]);
}
