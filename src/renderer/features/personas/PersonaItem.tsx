import { useState } from 'react';
import type { Persona } from '../../../shared/api';
import { plural } from '../../lib/format';
import { avatarOf } from '../../../shared/avatar';
import { usePersonas } from '../../stores/personas';
import { PersonaFormDialog } from './PersonaFormDialog';

interface Props {
  persona: Persona;
  index: number;
  active: boolean;
  onDelete(p: Persona): void;
  onExport(p: Persona): void;
}

export function PersonaItem({ persona, index, active, onDelete, onExport }: Props) {
  const [renaming, setRenaming] = useState(false);
  const { setActive } = usePersonas.getState();

  const c = persona.counts;
  return (
    <li className={`persona ${active ? 'active' : ''}`} data-testid="persona-item" data-persona-id={persona.id} data-active={active}>
      <button className="persona-main" data-testid="persona-switch" onClick={() => setActive(persona.id)} aria-current={active} title={index < 9 ? `Alt+${index + 1}` : undefined}>
        <span className="persona-avatar" aria-hidden>
          {avatarOf(persona)}
        </span>
        <span className="persona-text">
          <span className="persona-name" data-testid="persona-name">
            {persona.name}
            {persona.localOnly && (
              <span className="persona-lock" data-testid="persona-local-only-mark" role="img" aria-label="local only" title="Local only: its content goes only to models on this computer">
                {' 🔒'}
              </span>
            )}
          </span>
          <span className="persona-counts" data-testid="persona-counts" title={`${plural(c.memories, 'memory', 'memories')}, ${plural(c.knowledgeSources, 'knowledge source')}, ${plural(c.userModel, 'user-model dimension')}`}>
            {plural(c.memories, 'memory', 'memories')} · {plural(c.knowledgeSources, 'doc')}
          </span>
        </span>
      </button>
      <span className="persona-actions">
        <button
          className="icon"
          data-testid="persona-rename"
          title="Name, avatar and privacy"
          aria-label={`Edit ${persona.name}`}
          onClick={() => setRenaming(true)}
        >
          ✎
        </button>
        <button className="icon" data-testid="persona-export" title="Export…" aria-label={`Export ${persona.name}`} onClick={() => onExport(persona)}>
          ⇩
        </button>
        <button className="icon danger" data-testid="persona-delete" title={persona.id === 'main' ? 'Empty' : 'Delete'} aria-label={`Delete ${persona.name}`} onClick={() => onDelete(persona)}>
          ✕
        </button>
      </span>
      {renaming && <PersonaFormDialog persona={persona} onClose={() => setRenaming(false)} />}
    </li>
  );
}
