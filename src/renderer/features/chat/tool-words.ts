// Tool calls in words a person reads. The raw arguments and results are written for the model
// (memory ids, imp=N tags); the transcript shows what happened instead, never an id.

const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;

function parse(raw: string): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(raw);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v : null);

/** One line saying what the assistant asked for, e.g. Save memory: “Ran the Porto marathon”. */
export function describeToolCall(name: string, rawArgs: string): string {
  const a = parse(rawArgs);
  if (!a) return name;
  switch (name) {
    case 'memory': {
      const content = str(a.content);
      if (a.action === 'write') return content ? `Save a memory: “${content}”` : 'Save a memory';
      if (a.action === 'update') return content ? `Correct a memory to: “${content}”` : 'Correct a memory';
      if (a.action === 'delete') return 'Delete a memory';
      return 'Change memories';
    }
    case 'recall': {
      const q = str(a.query);
      return q ? `Search memories for “${q}”` : 'Look through memories';
    }
    case 'user_model_write': {
      const d = str(a.dimension);
      return d ? `Update what it knows about you: ${d}` : 'Update what it knows about you';
    }
    case 'knowledge_search': {
      const q = str(a.query);
      return q ? `Search the knowledge base for “${q}”` : 'Search the knowledge base';
    }
    case 'knowledge_ingest': {
      const s = str(a.source);
      return s ? `Add “${s}” to the knowledge base` : 'Add to the knowledge base';
    }
    default:
      return name;
  }
}

/** A tool result without ids: "Saved memory <uuid> [sport, imp=8, 2026-12-01]" reads "Saved memory [sport, …]". */
export function humanToolResult(content: string): string {
  return content
    .replace(/\b(memory|job)\s+([0-9a-f-]{36})\b/gi, '$1')
    .replace(UUID, '…')
    .replace(/^Error:\s*/, '');
}
