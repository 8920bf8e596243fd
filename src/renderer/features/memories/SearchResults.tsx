import type { RecallHit } from '../../../shared/api';
import { score } from '../../lib/format';
import { EmbeddingBadge } from './EmbeddingBadge';
import { matchesFilters } from './order';
import { useMemories } from './store';

function Breakdown({ hit }: { hit: RecallHit }) {
  const s = hit.score;
  const parts: [string, string, number | null, string][] = [
    ['text', 'Text', s.text, 'Text relevance (BM25), scaled to [0, 1] by the best match for this query'],
    ['cosine', 'Cosine', s.cosine, '1 − cosine distance to the query; — when the memory has no current-model embedding'],
    ['importance', 'Importance', s.importance, '0.2 × importance / 10'],
    ['recency', 'Recency', s.recency, '1 / (1 + days since it was written)'],
  ];
  return (
    <dl className="breakdown" data-testid="score-breakdown">
      {parts.map(([key, label, value, title]) => (
        <div key={key} title={title} data-testid={`score-${key}`}>
          <dt>{label}</dt>
          <dd>
            {score(value)}
            {key === 'text' && s.textFromNeighbours ? (
              <small
                className="from-neighbours"
                data-testid="score-text-neighbours"
                title="Part of the text score inherited from the memory written just before or after it that day"
              >
                {' '}
                incl. {score(s.textFromNeighbours)} from a neighbour
              </small>
            ) : null}
          </dd>
        </div>
      ))}
      <div className="final" data-testid="score-final" title="The score recall ranks by">
        <dt>Final</dt>
        <dd>{score(s.final)}</dd>
      </div>
    </dl>
  );
}

/** The "why recalled" view: each hit with the parts of its score. */
export function SearchResults() {
  const hits = useMemories((s) => s.hits) ?? [];
  const filters = useMemories((s) => s.filters);
  const searching = useMemories((s) => s.searching);
  const shown = hits.filter((h) => !h.memory || matchesFilters(h.memory, filters));

  if (!searching && shown.length === 0) {
    return (
      <div className="empty" data-testid="search-empty">
        <h2>Nothing recalled</h2>
        <p>No memory matches these words{hits.length > shown.length ? ' and the filters' : ''}. Try other words, or clear the search with Esc.</p>
      </div>
    );
  }

  return (
    <div className="search-results" data-testid="search-results">
      <p className="formula muted">
        score = (0.3·text + 0.5·cosine + importance term) × recency — or (text + importance term) × recency without an embedding
      </p>
      {shown.map((hit, i) => (
        <article className="hit" key={hit.id} data-testid="search-hit" data-memory-id={hit.id}>
          <div className="hit-rank">#{i + 1}</div>
          <div className="hit-body">
            <p className="memory-content" data-testid="hit-content">
              {hit.content}
            </p>
            <div className="memory-meta">
              <code className="tag">{hit.tag}</code>
              {hit.memory && <EmbeddingBadge memory={hit.memory} />}
            </div>
            <Breakdown hit={hit} />
          </div>
        </article>
      ))}
    </div>
  );
}
