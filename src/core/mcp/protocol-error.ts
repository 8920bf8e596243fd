/**
 * A JSON-RPC error to throw from a request handler. Not the SDK's McpError:
 * its message already starts "MCP error <code>: ", and the client adds that
 * prefix again on receipt, so the user would read it twice (or more, through
 * a proxy). The SDK sends `code` and `message` as they are.
 */
export function protocolError(code: number, message: string, data?: unknown): Error & { code: number; data?: unknown } {
  return Object.assign(new Error(message), { code, ...(data === undefined ? {} : { data }) });
}

/** An error's message without the "MCP error <code>: " prefixes (and HTTP transport wrappers) stacked on it by each hop. */
export function plainMessage(e: unknown): string {
  const raw = e instanceof Error ? e.message : String(e);
  return raw.replace(/^(?:(?:MCP error -?\d+|Streamable HTTP error|Error POSTing to endpoint(?: \(HTTP \d+\))?):\s*)+/g, '');
}
