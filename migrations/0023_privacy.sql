-- Privacy per persona and incognito chats (docs/privacy.md).
-- local_only: every model call carrying the persona's content goes only to this computer.
-- mcp: other AI tools may use the persona over MCP (false: every MCP call is refused).
ALTER TABLE personas ADD COLUMN local_only boolean NOT NULL DEFAULT false;
ALTER TABLE personas ADD COLUMN mcp boolean NOT NULL DEFAULT true;
-- An incognito conversation writes nothing to the persona's stores and is deleted when
-- closed, or at the next start (src/core/conversations/incognito.ts).
ALTER TABLE conversations ADD COLUMN incognito boolean NOT NULL DEFAULT false;
