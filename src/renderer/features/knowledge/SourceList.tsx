import { useRef, useState } from 'react';
import type { KnowledgeSource } from '../../../shared/api';
import { Dialog } from '../../components/Dialog';
import { plural, shortTime } from '../../lib/format';
import { ACCEPTED, formatBytes } from './files';
import { useKnowledge } from './store';
import { TableHead } from '../../components/TableHead';

function Coverage({ s }: { s: KnowledgeSource }) {
  const done = s.chunks > 0 && s.embedded >= s.chunks;
  return (
    <span className="coverage" data-testid="source-coverage" title="Chunks with a vector from the current embedding model (searchable by meaning)">
      <progress max={Math.max(1, s.chunks)} value={s.embedded} aria-label={`${s.source}: ${s.embedded} of ${plural(s.chunks, 'chunk')} embedded`} />
      <span className={done ? 'ok' : 'muted'}>
        {s.embedded}/{s.chunks}
      </span>
    </span>
  );
}

function SourceRow({ s, onDelete }: { s: KnowledgeSource; onDelete(): void }) {
  const picker = useRef<HTMLInputElement>(null);
  const persona = useKnowledge((st) => st.persona);
  return (
    <tr data-testid="source-row" data-source={s.source}>
      <td className="source-name">
        <span>{s.source}</span>
        <span className="muted">
          {s.kind ?? '—'}
          {s.pages !== null ? ` · ${plural(s.pages, 'page')}` : ''}
        </span>
      </td>
      <td data-testid="source-chunks">{s.chunks}</td>
      <td>{formatBytes(s.bytes)}</td>
      <td data-testid="source-ingested">{shortTime(s.ingestedAt)}</td>
      <td>
        <Coverage s={s} />
      </td>
      <td className="row-actions">
        <input
          ref={picker}
          type="file"
          accept={ACCEPTED}
          hidden
          data-testid="reingest-input"
          onChange={(e) => {
            const file = e.currentTarget.files?.[0];
            e.currentTarget.value = '';
            if (file && persona) void useKnowledge.getState().ingestFiles(persona, [file], s.source);
          }}
        />
        <button className="ghost small" data-testid="source-reingest" title="Pick the new version of this file" onClick={() => picker.current?.click()}>
          Re-ingest
        </button>
        <button className="ghost small danger" data-testid="source-delete" onClick={onDelete}>
          Delete
        </button>
      </td>
    </tr>
  );
}

export function SourceList() {
  const sources = useKnowledge((s) => s.sources);
  const [deleting, setDeleting] = useState<KnowledgeSource | null>(null);
  return (
    <>
      <table className="sources" data-testid="source-list">
        <TableHead columns={['Source', 'Chunks', 'Size', 'Ingested', 'Embedded']} actions />
        <tbody>
          {sources.map((s) => (
            <SourceRow key={s.source} s={s} onDelete={() => setDeleting(s)} />
          ))}
        </tbody>
      </table>
      {deleting && (
        <Dialog title={`Delete “${deleting.source}”?`} testId="delete-source-dialog" onClose={() => setDeleting(null)}>
          <p>
            Its {plural(deleting.chunks, 'chunk')} leave this persona’s knowledge for good; the file on your disk is not touched.
          </p>
          <div className="dialog-actions">
            <button className="ghost" onClick={() => setDeleting(null)}>
              Cancel
            </button>
            <button
              className="danger-solid"
              data-testid="confirm-delete-source"
              onClick={async () => {
                if (await useKnowledge.getState().remove(deleting.source)) setDeleting(null);
              }}
            >
              Delete
            </button>
          </div>
        </Dialog>
      )}
    </>
  );
}
