import { useEffect, useState } from 'react';
import { score } from '../../lib/format';
import { useKnowledge } from './store';

/** Runs `recall` restricted to knowledge and shows the hits with their source tag. */
export function KnowledgeSearch() {
  const query = useKnowledge((s) => s.query);
  const hits = useKnowledge((s) => s.hits);
  const searching = useKnowledge((s) => s.searching);
  const [text, setText] = useState(query);

  useEffect(() => {
    if (text === query) return;
    const t = setTimeout(() => void useKnowledge.getState().search(text), 300);
    return () => clearTimeout(t);
  }, [text, query]);

  return (
    <div className="knowledge-search">
      <div className="search">
        <input
          type="search"
          data-testid="knowledge-search"
          placeholder="Search this persona’s documents"
          aria-label="Search knowledge"
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') void useKnowledge.getState().search(text);
            if (e.key === 'Escape') {
              setText('');
              void useKnowledge.getState().search('');
            }
          }}
        />
        {searching && <span className="spinner" aria-label="Searching" />}
      </div>
      {hits && hits.length === 0 && !searching && (
        <p className="muted" data-testid="knowledge-no-hits">
          No passage matches “{query}”.
        </p>
      )}
      {hits && hits.length > 0 && (
        <ol className="knowledge-hits" data-testid="knowledge-hits">
          {hits.map((h) => (
            <li key={h.id} className="hit" data-testid="knowledge-hit">
              <div className="memory-meta">
                <code className="tag" data-testid="knowledge-hit-tag">
                  {h.tag}
                </code>
                <span className="muted" title="text relevance · cosine · final score">
                  text {score(h.score.text)} · cosine {score(h.score.cosine)} · score {score(h.score.final)}
                </span>
              </div>
              <p className="knowledge-hit-text" data-testid="knowledge-hit-text">
                {h.content}
              </p>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
