/**
 * Appended to a reply the person stopped mid-stream. It stays in the stored text (the model
 * sees that its answer was cut), and the UI shows it as a "Stopped" badge instead of literal text.
 */
export const STOPPED_MARK = '\n\n[stopped]';
