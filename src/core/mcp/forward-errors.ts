import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';

function causeCode(e: unknown): string | undefined {
  const cause = (e as { cause?: { code?: unknown } })?.cause;
  return typeof cause?.code === 'string' ? cause.code : undefined;
}

/**
 * The owner could not be reached, or is handing the folder over: the request
 * was not processed, so it is safe to find the owner again and retry.
 */
export function isUnreachable(e: unknown): boolean {
  if (e instanceof StreamableHTTPError) return e.code === 503;
  return e instanceof TypeError && causeCode(e) === 'ECONNREFUSED';
}

/** The owner forgot this session (restarted, expired) or the in-process connection closed: reconnect, then retry. */
export function isSessionLost(e: unknown): boolean {
  if (e instanceof StreamableHTTPError) return e.code === 404;
  return e instanceof McpError && e.code === ErrorCode.ConnectionClosed;
}
