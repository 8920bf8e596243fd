// The `openai` client library, loaded by the first request to a model server
// rather than at start: a start never sends one, and loading it costs the
// start ~0.07 CPU-s (docs/startup.md).
type OpenAiLib = typeof import('openai');

let lib: OpenAiLib | null = null;

export async function loadOpenAi(): Promise<OpenAiLib> {
  lib ??= await import('openai');
  return lib;
}

/** The library if a request loaded it; an error it threw can only come from a loaded library. */
export function loadedOpenAi(): OpenAiLib | null {
  return lib;
}
