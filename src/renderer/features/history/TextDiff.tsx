import { diffWords } from 'diff';

/**
 * A word-level diff of two versions' text: removed words struck, added words
 * marked (the `diff` package: Myers' algorithm, well kept, no dependencies).
 */
export function TextDiff({ before, after }: { before: string; after: string }) {
  const parts = diffWords(before, after);
  return (
    <p className="text-diff" data-testid="version-diff">
      {parts.map((p, i) =>
        p.added ? (
          <ins key={i} className="diff-add">
            {p.value}
          </ins>
        ) : p.removed ? (
          <del key={i} className="diff-del">
            {p.value}
          </del>
        ) : (
          <span key={i}>{p.value}</span>
        ),
      )}
    </p>
  );
}
