import { useNav } from '../stores/nav';
import { Dialog } from './Dialog';

const SHORTCUTS: [string, string][] = [
  ['Alt+1 … Alt+9', 'Switch to persona 1 … 9'],
  ['/ or Ctrl+K', 'Search memories'],
  ['n', 'New memory'],
  ['g then c / m / u / k / a / t / j / s', 'Go to Chat, Memories, User model, Knowledge, Activity, Trash, Jobs, Settings'],
  ['Ctrl+Enter', 'Save the form being edited'],
  ['Esc', 'Cancel editing, clear the search, close a dialog'],
  ['?', 'Show this help'],
];

export function ShortcutsHelp() {
  const setHelp = useNav((s) => s.setHelp);
  return (
    <Dialog title="Keyboard shortcuts" testId="shortcuts-help" onClose={() => setHelp(false)}>
      <table className="shortcuts">
        <tbody>
          {SHORTCUTS.map(([keys, what]) => (
            <tr key={keys}>
              <td>
                <kbd>{keys}</kbd>
              </td>
              <td>{what}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="hint">Single-key shortcuts are ignored while you type in a field.</p>
      <div className="dialog-actions">
        <button className="primary" onClick={() => setHelp(false)}>
          Close
        </button>
      </div>
    </Dialog>
  );
}
