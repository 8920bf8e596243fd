// A rehype step for Markdown shown with highlights (a knowledge hit's matching sentence): the text arrives
// with MARK_OPEN/MARK_CLOSE around what to highlight, which may cross bold, links or list items, so every
// piece of text between the two becomes its own <mark> and the markers themselves are dropped.

/** The two characters, from the Unicode private-use area (they mean nothing in any document). */
export const MARK_OPEN = '\uE000';
export const MARK_CLOSE = '\uE001';

interface HastNode {
  type: string;
  value?: string;
  tagName?: string;
  properties?: Record<string, unknown>;
  children?: HastNode[];
}

const MARKERS = /[\uE000\uE001]/g;

export function rehypeMarks(mark: { className: string; testId: string; title?: string }) {
  return () => (tree: HastNode) => {
    let inside = false;
    const visit = (node: HastNode) => {
      if (!node.children) return;
      const out: HastNode[] = [];
      for (const child of node.children) {
        if (child.type !== 'text') {
          // A marker that landed in a link target is not text: it must not reach the URL.
          for (const [k, v] of Object.entries(child.properties ?? {})) {
            if (typeof v === 'string') child.properties![k] = v.replace(MARKERS, '');
          }
          visit(child);
          out.push(child);
          continue;
        }
        for (const piece of (child.value ?? '').split(/([\uE000\uE001])/)) {
          if (piece === MARK_OPEN) inside = true;
          else if (piece === MARK_CLOSE) inside = false;
          // Whitespace between blocks (a list's line breaks) is not text a person reads: never marked.
          else if (piece && inside && piece.trim()) {
            const properties = { className: [mark.className], dataTestid: mark.testId, ...(mark.title ? { title: mark.title } : {}) };
            out.push({ type: 'element', tagName: 'mark', properties, children: [{ type: 'text', value: piece }] });
          } else if (piece) out.push({ type: 'text', value: piece });
        }
      }
      node.children = out;
    };
    visit(tree);
  };
}
