import { useEffect, useRef, useState, type ReactNode } from 'react';
import { usePersonas } from '../../stores/personas';
import { useKnowledgeLive } from './live';
import { ReplaceDialog } from './ReplaceDialog';
import { useKnowledge } from './store';
import './knowledge.css';

function hasFiles(e: DragEvent): boolean {
  return Array.from(e.dataTransfer?.types ?? []).includes('Files');
}

/**
 * Window-wide drop target: a file dropped anywhere goes into the active
 * persona's knowledge. Listening on window also stops the browser from
 * navigating away to a dropped file.
 */
export function DropZone({ children }: { children: ReactNode }) {
  const [over, setOver] = useState(false);
  const depth = useRef(0);
  const personaName = usePersonas((s) => s.personas.find((p) => p.id === s.activeId)?.name ?? s.activeId);
  useKnowledgeLive();

  useEffect(() => {
    const enter = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      depth.current++;
      setOver(true);
    };
    const overFn = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy';
      setOver(true);
    };
    const leave = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      depth.current = Math.max(0, depth.current - 1);
      if (depth.current === 0) setOver(false);
    };
    const drop = (e: DragEvent) => {
      if (!hasFiles(e) && !e.dataTransfer?.files.length) return;
      e.preventDefault();
      depth.current = 0;
      setOver(false);
      const files = Array.from(e.dataTransfer?.files ?? []);
      if (files.length) void useKnowledge.getState().addFiles(usePersonas.getState().activeId, files);
    };
    window.addEventListener('dragenter', enter);
    window.addEventListener('dragover', overFn);
    window.addEventListener('dragleave', leave);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragenter', enter);
      window.removeEventListener('dragover', overFn);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('drop', drop);
    };
  }, []);

  return (
    <>
      {children}
      <ReplaceDialog />
      {over && (
        <div className="drop-overlay" data-testid="drop-overlay" aria-hidden>
          <div className="drop-card">
            <strong>Drop to add to {personaName}’s knowledge</strong>
            <span>PDF, Word (.docx), Markdown or plain text</span>
          </div>
        </div>
      )}
    </>
  );
}
