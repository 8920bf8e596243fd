import { useEffect, useRef } from 'react';
import { usePersonas } from '../../stores/personas';
import { ACCEPTED } from './files';
import { IngestList } from './IngestList';
import { KnowledgeSearch } from './KnowledgeSearch';
import { SourceList } from './SourceList';
import { useKnowledge } from './store';
import { WatchedFolders } from './WatchedFolders';

/** The active persona's documents: add, watch them come in, search, re-ingest, delete. */
export function KnowledgeView() {
  const persona = usePersonas((s) => s.activeId);
  const loaded = useKnowledge((s) => s.loaded);
  const count = useKnowledge((s) => s.sources.length);
  const picker = useRef<HTMLInputElement>(null);

  useEffect(() => useKnowledge.getState().open(persona), [persona]);

  return (
    <section className="view knowledge-view" data-testid="knowledge-view">
      <header className="view-header">
        <div>
          <h1>Knowledge</h1>
          <p className="muted">Reference documents the assistant can recall. Drop files anywhere in the window, or pick them.</p>
        </div>
        <div>
          <input
            ref={picker}
            type="file"
            multiple
            accept={ACCEPTED}
            hidden
            data-testid="knowledge-file-input"
            onChange={(e) => {
              const files = Array.from(e.currentTarget.files ?? []);
              e.currentTarget.value = '';
              if (files.length) void useKnowledge.getState().addFiles(persona, files);
            }}
          />
          <button className="primary" data-testid="knowledge-add" onClick={() => picker.current?.click()}>
            Add files…
          </button>
        </div>
      </header>
      <IngestList />
      <WatchedFolders persona={persona} />
      <KnowledgeSearch />
      {loaded && count === 0 ? (
        <div className="empty" data-testid="knowledge-empty">
          <h2>No documents yet</h2>
          <p>Drop a PDF, Word (.docx), Markdown or text file onto the window. It becomes searchable by text at once and by meaning once embedded.</p>
        </div>
      ) : (
        <SourceList />
      )}
    </section>
  );
}
