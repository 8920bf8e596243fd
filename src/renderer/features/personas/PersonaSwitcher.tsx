import { useState } from 'react';
import type { Persona } from '../../../shared/api';
import { usePersonas } from '../../stores/personas';
import { DeletePersonaDialog } from './DeletePersonaDialog';
import { PersonaItem } from './PersonaItem';

/** The sidebar's persona list: switch, create, rename, delete. */
export function PersonaSwitcher() {
  const personas = usePersonas((s) => s.personas);
  const activeId = usePersonas((s) => s.activeId);
  const [creating, setCreating] = useState(false);
  const [name, setName] = useState('');
  const [deleting, setDeleting] = useState<Persona | null>(null);

  return (
    <div className="persona-switcher" data-testid="persona-switcher">
      <div className="sidebar-heading">
        <span>Personas</span>
        <button className="icon" data-testid="persona-new" title="New persona" aria-label="New persona" onClick={() => setCreating(true)}>
          +
        </button>
      </div>
      <ul className="personas">
        {personas.map((p, i) => (
          <PersonaItem key={p.id} persona={p} index={i} active={p.id === activeId} onDelete={setDeleting} />
        ))}
      </ul>
      {creating && (
        <form
          className="persona-create"
          onSubmit={async (e) => {
            e.preventDefault();
            if (!name.trim()) return;
            if (await usePersonas.getState().create(name.trim())) {
              setName('');
              setCreating(false);
            }
          }}
        >
          <input
            data-testid="persona-name-input"
            aria-label="Persona name"
            placeholder="Name, e.g. Trader"
            maxLength={64}
            value={name}
            autoFocus
            onChange={(e) => setName(e.target.value)}
            onKeyDown={(e) => e.key === 'Escape' && setCreating(false)}
          />
          <button type="submit" className="primary small" data-testid="persona-create" disabled={!name.trim()}>
            Create
          </button>
        </form>
      )}
      {deleting && <DeletePersonaDialog persona={personas.find((p) => p.id === deleting.id) ?? deleting} onClose={() => setDeleting(null)} />}
    </div>
  );
}
