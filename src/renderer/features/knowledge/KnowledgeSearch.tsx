import { useEffect, useState } from 'react';
import type { RecallHit } from '../../../shared/api';
import { MEANINGFUL_COSINE } from '../../../shared/recall-match';
import { score } from '../../lib/format';
import { Markdown, type MarkStyle } from '../../components/Markdown';
import { excerpt, isMarkdownSource, markdownExcerpt, matchExcerpt } from './excerpt';
import { useKnowledge } from './store';

const MATCH_MARK: MarkStyle = { className: 'knowledge-match', testId: 'knowledge-hit-match', title: 'The sentences that match the question best' };
const WORD_MARK: MarkStyle = { className: 'knowledge-word', testId: 'knowledge-hit-word' };

/** A passage from a Markdown file, rendered as chat renders replies, its matching sentence still highlighted. */
function MarkdownHit({ hit, query }: { hit: RecallHit; query: string }) {
  const [whole, setWhole] = useState(false);
  const hasSpan = hit.match?.start !== undefined && hit.match?.end !== undefined;
  const { text, clipped } = markdownExcerpt(hit.content, query, hit.match, { whole });
  const shortened = whole || clipped;
  return (
    <>
      <div className="knowledge-hit-text md-hit">
        <Markdown text={text} marks={hasSpan ? MATCH_MARK : WORD_MARK} testId="knowledge-hit-text" />
      </div>
      {shortened && (
        <button className="link" onClick={() => setWhole(!whole)}>
          {whole ? 'Show the excerpt' : 'Show the whole passage'}
        </button>
      )}
    </>
  );
}

function KnowledgeHit({ hit, query }: { hit: RecallHit; query: string }) {
  const md = isMarkdownSource(hit.source);
  return (
    <li className="knowledge-hit" data-testid="knowledge-hit">
      <HitMeta hit={hit} />
      {md ? <MarkdownHit hit={hit} query={query} /> : <PlainHit hit={hit} query={query} />}
    </li>
  );
}

/** Why this passage came back, in words: the same two signals the numbers give. */
function whyWords(hit: RecallHit): string {
  // The same rule as the memory search's "weaker matches" (src/shared/recall-match.ts).
  const words = hit.score.text - (hit.score.textFromNeighbours ?? 0) > 1e-9;
  const meaning = hit.score.cosine !== null && hit.score.cosine >= MEANINGFUL_COSINE;
  if (words && meaning) return 'matched by words and meaning';
  if (words) return 'matched by words';
  return meaning ? 'similar meaning' : 'a weaker match';
}

function HitMeta({ hit }: { hit: RecallHit }) {
  const page = hit.match?.page;
  return (
    <div className="knowledge-hit-meta">
      {/* Named by file (and page, below), not by the model's citation tag "[knowledge x.pdf#7]", whose #7 is a chunk. */}
      <strong className="knowledge-hit-source" data-testid="knowledge-hit-source" title={hit.tag} dir="auto">
        {hit.source ?? hit.tag}
      </strong>
      {page != null && (
        <span className="muted" data-testid="knowledge-hit-page">
          page {page}
        </span>
      )}
      <span className="muted" data-testid="knowledge-hit-why">
        {whyWords(hit)}
      </span>
      {/* The numbers are there for whoever wants them, not in front of the passage (as for memories). */}
      <details className="why-numbers">
        <summary>Numbers</summary>
        <span className="muted" title="text relevance · cosine similarity · final score">
          text {score(hit.score.text)} · cosine {score(hit.score.cosine)} · score {score(hit.score.final)}
        </span>
      </details>
    </div>
  );
}

/** A passage from a PDF or plain text: whitespace as the file had it. */
function PlainHit({ hit, query }: { hit: RecallHit; query: string }) {
  const [whole, setWhole] = useState(false);
  // The sentences recall matched best, when it names them; else the densest cluster of query words.
  const best = matchExcerpt(hit.content, hit.match);
  const words = excerpt(hit.content, query);
  const clipped = best ? best.clipped : words.clipped;
  return (
    <>
      <p className="knowledge-hit-text" data-testid="knowledge-hit-text">
        {whole ? (
          hit.content
        ) : best ? (
          <>
            {best.before && `${best.clipped ? '… ' : ''}${best.before}`}
            <mark className="knowledge-match" data-testid="knowledge-hit-match" title="The sentences that match the question best">
              {best.sentence}
            </mark>
            {best.after && `${best.after}${best.clipped ? ' …' : ''}`}
          </>
        ) : (
          <>
            {clipped && '… '}
            {words.parts.map((p, i) => (p.match ? <mark key={i}>{p.text}</mark> : <span key={i}>{p.text}</span>))}
            {clipped && ' …'}
          </>
        )}
      </p>
      {clipped && (
        <button className="link" onClick={() => setWhole(!whole)}>
          {whole ? 'Show the excerpt' : 'Show the whole passage'}
        </button>
      )}
    </>
  );
}

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
            <KnowledgeHit key={h.id} hit={h} query={query} />
          ))}
        </ol>
      )}
    </div>
  );
}
