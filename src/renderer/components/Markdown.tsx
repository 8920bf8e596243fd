import { lazy, Suspense } from 'react';
import './markdown.css';

/** How highlighted text (between MARK_OPEN and MARK_CLOSE) is marked up. */
export interface MarkStyle {
  className: string;
  testId: string;
  title?: string;
}

// The Markdown renderer and its highlighter are most of the page's code: they load in their own file,
// after the first view is drawn (docs/startup.md).
const loadRender = () => import('./MarkdownRender');
const MarkdownRender = lazy(loadRender);

/** Starts loading the renderer ahead of the first message, once the first view is on screen. */
export function preloadMarkdown(): void {
  void loadRender();
}

/**
 * Markdown as the model writes it (see MarkdownRender). Until its code has loaded (a moment after the
 * first view is drawn) the box stays empty and busy: a person never reads the raw markup.
 */
export function Markdown(props: { text: string; marks?: MarkStyle; testId?: string }) {
  return (
    <Suspense fallback={<div className="md" dir="auto" aria-busy="true" data-testid={props.testId} />}>
      <MarkdownRender {...props} />
    </Suspense>
  );
}
