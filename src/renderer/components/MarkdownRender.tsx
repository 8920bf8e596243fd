import { type ComponentProps, type ReactNode, useMemo, useState } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import rehypeHighlight from 'rehype-highlight';
import remarkGfm from 'remark-gfm';
import type { MarkStyle } from './Markdown';
import { rehypeMarks } from './markdown-marks';

/** The text a code block holds, read from React children (highlighted spans included). */
function textOf(node: ReactNode): string {
  if (typeof node === 'string' || typeof node === 'number') return String(node);
  if (Array.isArray(node)) return node.map(textOf).join('');
  if (node && typeof node === 'object' && 'props' in node) return textOf((node.props as { children?: ReactNode }).children);
  return '';
}

function CodeBlock({ children }: ComponentProps<'pre'>) {
  const [copied, setCopied] = useState(false);
  async function copy() {
    try {
      await navigator.clipboard.writeText(textOf(children).replace(/\n$/, ''));
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    } catch {
      // Clipboard refused (no permission, page not focused): the text stays selectable by hand.
    }
  }
  return (
    <div className="md-code">
      <button type="button" className="md-copy ghost small" data-testid="code-copy" onClick={() => void copy()}>
        {copied ? 'Copied' : 'Copy'}
      </button>
      <pre>{children}</pre>
    </div>
  );
}

/** GFM column alignment arrives as an inline style, which our CSP forbids: it becomes a class instead. */
function alignClass(style: ComponentProps<'td'>['style']): string | undefined {
  const a = style?.textAlign;
  return a === 'left' || a === 'center' || a === 'right' ? `md-align-${a}` : undefined;
}

const components: Components = {
  // Links leave the app: the desktop shell opens them in the user's browser, the browser host in a new tab.
  a: ({ node: _n, href, children }) => (
    <a href={href} target="_blank" rel="noopener noreferrer">
      {children}
    </a>
  ),
  pre: ({ node: _n, children }) => <CodeBlock>{children}</CodeBlock>,
  td: ({ node: _n, style, children }) => <td className={alignClass(style)}>{children}</td>,
  th: ({ node: _n, style, children }) => <th className={alignClass(style)}>{children}</th>,
  // Model output may not load images from the network (CSP would block them anyway): show the link instead.
  img: ({ node: _n, src, alt }) => (
    <a href={typeof src === 'string' ? src : undefined} target="_blank" rel="noopener noreferrer">
      {alt || 'image'}
    </a>
  ),
};

const remarkPlugins = [remarkGfm];
const rehypePlugins = [rehypeHighlight];

/**
 * Markdown as the model writes it: GFM (tables, lists, strikethrough), highlighted code.
 * Raw HTML is dropped, never rendered (`skipHtml`); react-markdown already neutralises
 * javascript: and other unsafe link targets.
 */
export default function MarkdownRender({ text, marks, testId }: { text: string; marks?: MarkStyle; testId?: string }) {
  const plugins = useMemo(() => (marks ? [...rehypePlugins, rehypeMarks(marks)] : rehypePlugins), [marks?.className, marks?.testId, marks?.title]);
  return (
    <div className="md" dir="auto" data-testid={testId}>
      <ReactMarkdown remarkPlugins={remarkPlugins} rehypePlugins={plugins} components={components} skipHtml>
        {text}
      </ReactMarkdown>
    </div>
  );
}
