// Start-up notices: things found wrong (and repaired or set aside) that the
// person must see. Kept for this run only; the UI shows them as a banner until
// dismissed (docs/data-safety.md, "Telling the person").
import type { EventBus } from '../events';

export interface NoticeBoard {
  notices: string[];
  events: EventBus;
}

/** Adds a notice once, and tells the UI to show it. */
export function raiseNotice(board: NoticeBoard, text: string): void {
  if (!board.notices.includes(text)) board.notices.push(text);
  board.events.emit('app.notices', {});
}

/** Removes a notice (by its text); true when it was there. */
export function dismissNotice(board: NoticeBoard, text: string): boolean {
  const at = board.notices.indexOf(text);
  if (at < 0) return false;
  board.notices.splice(at, 1);
  board.events.emit('app.notices', {});
  return true;
}
