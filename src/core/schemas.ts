// The argument schemas' building blocks live with the contract (src/shared/contract/fields.ts);
// the core's own checks (model JSON, imported files) build on the same ones.
export {
  avatar,
  category,
  confidence,
  dimension,
  importance,
  isoDay,
  MCP_CLIENT_NAME,
  memoryFilters,
  memoryOrigin,
  noArgs,
  personaId,
  text,
  uuid,
} from '../shared/contract/fields';
