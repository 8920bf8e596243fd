import type { ChatProvider } from '../../providers/llm/types';

export const MAX_SUMMARY_CHARS = 4_000;

const SUMMARY_INSTRUCTIONS = `You maintain the rolling summary of a long conversation between a user and their assistant.
Merge the previous summary with the new excerpt into one concise summary (under ${MAX_SUMMARY_CHARS} characters): who asked what, what was decided, open threads, and facts the assistant will need. Drop small talk. Answer with the summary text only.`;

/** One call; throws on failure so the job retries and nothing is folded. */
export async function summarise(provider: ChatProvider, previous: string, slice: string, signal: AbortSignal): Promise<string> {
  const res = await provider.chat(
    [
      { role: 'system', content: SUMMARY_INSTRUCTIONS },
      { role: 'user', content: `## Previous summary\n${previous || '(none)'}\n\n## New excerpt\n${slice}` },
    ],
    [],
    { signal },
  );
  const text = res.content.trim();
  return text.length > MAX_SUMMARY_CHARS ? `${text.slice(0, MAX_SUMMARY_CHARS - 1)}…` : text;
}
