import { useEffect, useRef, useState } from 'react';
import { usePersonas } from '../../stores/personas';
import { useKnowledge, type Ingest } from './store';

const STATE_TEXT: Record<Ingest['state'], string> = {
  uploading: 'sending…',
  queued: 'queued',
  running: 'working…',
  retrying: 'failed, will retry',
  failed: 'failed',
};

function IngestRow({ ingest }: { ingest: Ingest }) {
  const p = ingest.progress;
  const label = ingest.state === 'failed' || ingest.state === 'retrying' ? STATE_TEXT[ingest.state] : (p?.label ?? STATE_TEXT[ingest.state]);
  return (
    <li className={`ingest ingest-${ingest.state}`} data-testid="ingest-row" data-source={ingest.source} data-state={ingest.state}>
      <div className="ingest-head">
        <span className="ingest-name">{ingest.source}</span>
        <span className="muted" data-testid="ingest-label">
          {label}
        </span>
        {ingest.state === 'failed' && (
          <button className="icon" aria-label={`Dismiss ${ingest.source}`} onClick={() => useKnowledge.getState().dismiss(ingest.key)}>
            ×
          </button>
        )}
      </div>
      {ingest.state === 'failed' ? (
        <p className="ingest-error" role="alert" data-testid="ingest-error">
          {ingest.error}
        </p>
      ) : (
        // Indeterminate (no value) until the parser knows the page count.
        <progress
          data-testid="ingest-progress"
          aria-label={`${ingest.source}: ${label}`}
          max={p && p.total > 0 ? p.total : undefined}
          value={p && p.total > 0 ? p.done : undefined}
        />
      )}
    </li>
  );
}

/**
 * What a screen reader hears about the files coming in: each file's state in words
 * (not every page of progress), and "done" once the last one has gone in.
 */
function useIngestAnnouncement(ingests: Ingest[]): string {
  const [finished, setFinished] = useState(false);
  const busy = ingests.length > 0;
  const wasBusy = useRef(false);
  useEffect(() => {
    if (wasBusy.current && !busy) setFinished(true);
    if (busy) setFinished(false);
    wasBusy.current = busy;
  }, [busy]);
  if (busy) return ingests.map((i) => `${i.source}: ${STATE_TEXT[i.state]}`).join('; ');
  return finished ? 'Finished adding files.' : '';
}

/** Files on their way in for the active persona, with a progress bar each. */
export function IngestList() {
  const persona = usePersonas((s) => s.activeId);
  const ingests = useKnowledge((s) => s.ingests).filter((i) => i.persona === persona);
  const announcement = useIngestAnnouncement(ingests);
  return (
    <>
      <p className="visually-hidden" role="status" data-testid="ingest-status">
        {announcement}
      </p>
      {ingests.length > 0 && (
        <ul className="ingests" data-testid="ingest-list" aria-label="Files being added">
          {ingests.map((i) => (
            <IngestRow key={i.key} ingest={i} />
          ))}
        </ul>
      )}
    </>
  );
}
