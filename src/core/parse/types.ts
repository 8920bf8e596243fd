/** A stretch of a document: a PDF page, or the whole text of a Markdown/text file. */
export interface Segment {
  text: string;
  page?: number;
}

export type DocumentKind = 'pdf' | 'markdown' | 'text' | 'docx';

export interface ParsedDocument {
  kind: DocumentKind;
  /** Page count for PDFs, null otherwise. */
  pages: number | null;
  /** PDF: one segment per page with text; Markdown/text/Word: one segment. */
  segments: Segment[];
}

/** How to parse one file. */
export interface ParseOptions {
  kind: DocumentKind;
  /** The name used in messages (the file or source name). */
  name: string;
  onProgress?: (page: number, pages: number) => void;
  signal?: AbortSignal;
}

/** Why a file cannot be ingested. None of these gets better by trying again. */
export type ParseFailure =
  | 'too_large'
  | 'unsupported_type'
  | 'empty'
  | 'not_utf8'
  | 'encrypted'
  | 'corrupt'
  | 'no_text';

/** The parse worker's messages to the core thread, tagged with the request's id. */
export type ParseMessage =
  | { id: number; type: 'progress'; page: number; pages: number }
  | { id: number; type: 'done'; doc: ParsedDocument }
  | { id: number; type: 'error'; failure: ParseFailure | 'internal'; message: string };

/** What the core thread asks the parse worker to do (one request at a time). */
export interface ParseRequest {
  id: number;
  path: string;
  kind: DocumentKind;
  name: string;
}
