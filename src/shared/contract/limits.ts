// Every bound the contract sets on what crosses a door, named once: the core's
// schemas, the chat and MCP tools and the page's form fields all read these.

/** A memory's importance, and how sure a user-model dimension is (its confidence): a whole number on this scale. */
export const SCALE_MIN = 1;
export const SCALE_MAX = 10;
/** A memory's category (a short label). */
export const CATEGORY_MAX = 64;
/** A persona's name. */
export const PERSONA_NAME_MAX = 64;
/** One memory's text. */
export const MEMORY_CONTENT_MAX = 20_000;
/** One user-model dimension's name. */
export const DIMENSION_MAX = 64;
/** One user-model dimension's text. */
export const USER_MODEL_CONTENT_MAX = 4_000;
/** A conversation's title. */
export const CONVERSATION_TITLE_MAX = 200;
/** One chat message the person sends. */
export const USER_MESSAGE_MAX = 100_000;
/** A search query (recall, the memory browser). */
export const QUERY_MAX = 100_000;
/** A conversation search's words. */
export const CONVERSATION_QUERY_MAX = 500;
/** Why a memory was superseded. */
export const REASON_MAX = 500;
/** A page cursor as the API hands it out. */
export const CURSOR_MAX = 500;
/** A file path given by the desktop app. */
export const PATH_MAX = 4096;
/** An uploaded file's name. */
export const FILE_NAME_MAX = 500;
/** A knowledge source's name. */
export const SOURCE_MAX = 1000;
/** Pasted text or a small file for memories.importFrom; whole exports of other tools are far below this. */
export const IMPORT_TEXT_MAX = 32 * 1024 * 1024;
/** MCP calls kept in the log (the newest). */
export const MCP_LOG_KEEP = 1_000;
/** The longest a recall query from the chat model may be. */
export const TOOL_QUERY_MAX = 2_000;
/** Hits one recall tool call may ask for. */
export const TOOL_RECALL_LIMIT_MAX = 20;
