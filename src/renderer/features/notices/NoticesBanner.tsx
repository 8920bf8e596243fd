import { useEffect } from 'react';
import { useEvents } from '../../api/events';
import { useNotices } from './store';
import './notices.css';

/**
 * What start-up (or the check soon after it) found wrong — keys moved aside,
 * a restore finished or discarded, damage in a table — shown above every view
 * until the person dismisses it. Each notice is an alert: it is news about
 * their data, read out once by a screen reader.
 */
export function NoticesBanner() {
  const notices = useNotices((s) => s.notices);
  useEffect(() => void useNotices.getState().load(), []);
  useEvents(() => ({ 'app.notices': () => void useNotices.getState().load() }));
  if (!notices.length) return null;
  return (
    <section className="notices" aria-label="Notices about your data" data-testid="notices">
      {notices.map((n) => (
        <div key={n} className="notice" role="alert" data-testid="notice">
          <p className="notice-text" dir="auto">
            {n}
          </p>
          <button className="ghost notice-dismiss" aria-label="Dismiss this notice" data-testid="notice-dismiss" onClick={() => void useNotices.getState().dismiss(n)}>
            Dismiss
          </button>
        </div>
      ))}
    </section>
  );
}
