import { meaningStrength, type RecallHit } from '../../../shared/api';
import { longDay, score } from '../../lib/format';
import { EmbeddingBadge } from './EmbeddingBadge';
import { LongText } from './LongText';
import { hasFilters } from './order';
import { useMemories } from './store';
import { splitHits, whyRecalled } from './why';

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

function WhyLine({ hit, query }: { hit: RecallHit; query: string }) {
  const why = whyRecalled(hit, query);
  return (
    <p className="why" data-testid="why-recalled">
      {why.matched.length > 0 && (
        <span>
          matched{' '}
          {why.matched.map((w, i) => (
            <span key={w}>
              {i > 0 && ', '}
              <em>{w}</em>
            </span>
          ))}
        </span>
      )}
      {why.meaning && <span>similar meaning</span>}
      {why.rest.map((r) => (
        <span key={r}>{r}</span>
      ))}
    </p>
  );
}

/** "strong match", "fair match" or "weak match": closeness in meaning from the cosine, in words. */
function Strength({ cosine }: { cosine: number | null }) {
  if (cosine === null) return null;
  const strength = meaningStrength(cosine);
  return (
    <span className={`chip strength strength-${strength}`} data-testid="hit-strength" data-strength={strength} title={`Closeness in meaning (cosine ${score(cosine)})`}>
      {strength} match
    </span>
  );
}

function Hit({ hit, rank, query }: { hit: RecallHit; rank: number; query: string }) {
  const m = hit.memory;
  return (
    <article className="hit" data-testid="search-hit" data-memory-id={hit.id}>
      <div className="hit-rank">#{rank}</div>
      <div className="hit-body">
        <LongText text={hit.content} testId="hit-content" />
        <div className="memory-meta">
          <Strength cosine={hit.score.cosine} />
          {m && (
            <span className="chip muted" data-testid="hit-category">
              {m.category ?? 'uncategorised'}
            </span>
          )}
          {m && <span className="muted">{longDay(m.day)}</span>}
          {m && <EmbeddingBadge memory={m} />}
          {m && (
            <span className="hit-actions">
              <button
                className="ghost small"
                data-testid="hit-edit"
                onClick={() => useMemories.getState().openHit(m, 'edit')}
              >
                Edit
              </button>
              {!m.supersededBy && (
                <button
                  className="ghost small"
                  data-testid="hit-replace"
                  title="This is no longer true: write the newer fact"
                  onClick={() => useMemories.getState().openHit(m, 'replace')}
                >
                  Replace…
                </button>
              )}
              <button
                className="ghost small danger"
                data-testid="hit-delete"
                onClick={() => {
                  useMemories.setState((s) => ({ hits: s.hits?.filter((h) => h.id !== m.id) ?? null }));
                  void useMemories.getState().remove(m);
                }}
              >
                Delete
              </button>
            </span>
          )}
        </div>
        <WhyLine hit={hit} query={query} />
        <details className="why-numbers">
          <summary>Numbers</summary>
          <Breakdown hit={hit} />
          <p className="formula muted">
            score = (0.3·text + 0.5·cosine + importance term) × recency — or (text + importance term) × recency without an embedding.
            Recency counts from when the memory was saved, not from its date.
          </p>
        </details>
      </div>
    </article>
  );
}

/** "12 memories match…" or "The best 12 of 312 memories that match…": what the count counts, said plainly. */
function countLine(shown: number, total: number, lowerBound: boolean, filtered: boolean, closest: number): string {
  const within = filtered ? ' within the filters' : '';
  if (shown === 0) {
    if (closest > 0) return `No memory contains these words${within}. The closest in meaning, best first:`;
    return `No memory contains these words${within}, and none can be compared by meaning yet.`;
  }
  if (total <= shown && !lowerBound) return `${shown === 1 ? '1 memory matches' : `${shown.toLocaleString()} memories match`} by words or meaning${within}.`;
  return `The best ${shown.toLocaleString()} of ${total.toLocaleString()}${lowerBound ? '+' : ''} memories that match by words or meaning${within}.`;
}

/** The "why recalled" view: each hit with its reasons in words, numbers on request; weak hits apart. */
export function SearchResults() {
  const hits = useMemories((s) => s.hits) ?? [];
  const filters = useMemories((s) => s.filters);
  const total = useMemories((s) => s.matchTotal);
  const lowerBound = useMemories((s) => s.matchTotalIsLowerBound);
  const searching = useMemories((s) => s.searching);
  const query = useMemories((s) => s.query);
  // The filters already narrowed the recall itself (memories.search): every hit passes them.
  const { matches: strong, closest, weaker: weak } = splitHits(hits);

  if (!searching && hits.length === 0) {
    return (
      <div className="empty" data-testid="search-empty">
        <h2>Nothing recalled</h2>
        <p>No memory matches these words{hasFilters(filters) ? ' within the filters' : ''}. Try other words, or clear the search with Esc.</p>
      </div>
    );
  }

  return (
    <div className="search-results" data-testid="search-results">
      <p className="muted" data-testid="search-count">
        {countLine(strong.length, total, lowerBound, hasFilters(filters), closest.length)}
        {weak.length > 0 && ` ${weak.length} weaker ${weak.length === 1 ? 'one' : 'ones'} below.`}
      </p>
      {strong.map((hit, i) => (
        <Hit key={hit.id} hit={hit} rank={i + 1} query={query} />
      ))}
      {closest.length > 0 && (
        <section className="closest" data-testid="closest-matches" aria-label="Closest in meaning">
          {strong.length > 0 && <h2 className="side-title">Also close in meaning</h2>}
          {closest.map((hit, i) => (
            <Hit key={hit.id} hit={hit} rank={strong.length + i + 1} query={query} />
          ))}
        </section>
      )}
      {weak.length > 0 && (
        <details className="weaker" data-testid="weaker-matches">
          <summary>Weaker matches ({weak.length}): recalled for importance or recency, not for these words</summary>
          {weak.map((hit, i) => (
            <Hit key={hit.id} hit={hit} rank={strong.length + closest.length + i + 1} query={query} />
          ))}
        </details>
      )}
    </div>
  );
}
