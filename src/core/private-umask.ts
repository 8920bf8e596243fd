// Imported first by every door's entry (Electron main, browser host, MCP stdio):
// ES modules evaluate in import order, so the umask is in place before any
// module can write. Everything Hearth and PGlite create in the data folder is
// then private to the user: 0600 files, 0700 folders (docs/data-safety.md).
process.umask(0o077);
