-- Other AI tools connected over MCP: their memories carry origin 'mcp:<client>'
-- (the client's sanitised initialize name, src/core/mcp/client-name.ts), the
-- clients seen so far can be switched off, and every call is logged.
ALTER TABLE memories DROP CONSTRAINT memories_origin_check;
ALTER TABLE memories ADD CONSTRAINT memories_origin_check CHECK (
  origin IN ('explicit', 'review', 'flush', 'manual', 'import')
  OR origin ~ '^mcp:[A-Za-z0-9._-]([A-Za-z0-9._ -]{0,62}[A-Za-z0-9._-])?$'
);

CREATE TABLE mcp_clients (
  name        text PRIMARY KEY CHECK (name ~ '^[A-Za-z0-9._-]([A-Za-z0-9._ -]{0,62}[A-Za-z0-9._-])?$'),
  version     text NULL,
  enabled     boolean NOT NULL DEFAULT true,
  first_seen  timestamptz NOT NULL DEFAULT now(),
  last_seen   timestamptz NOT NULL DEFAULT now(),
  calls       bigint NOT NULL DEFAULT 0,
  last_tool   text NULL,
  last_persona text NULL,
  last_ok     boolean NULL
);

-- Tool names, persona ids and error messages only: never arguments or memory content.
CREATE TABLE mcp_calls (
  id       bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  client   text NOT NULL,
  tool     text NOT NULL,
  persona  text NOT NULL,
  at       timestamptz NOT NULL DEFAULT now(),
  ok       boolean NOT NULL,
  error    text NULL,
  ms       int NULL
);
CREATE INDEX mcp_calls_client_idx ON mcp_calls (client, id DESC);
