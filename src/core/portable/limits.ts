/**
 * The largest .hearth file an import takes. A memory is ~2 kB in the file
 * (most of it its vector, docs/export.md), so 2 GiB holds about a million
 * memories with their history, documents and chats: far past any persona
 * Hearth keeps, while a runaway or hostile upload is refused before a byte of
 * it is read. Every door checks it first: the browser host from the request's
 * Content-Length, the desktop app from the file's size.
 */
export const MAX_IMPORT_BYTES = 2 * 1024 * 1024 * 1024;
