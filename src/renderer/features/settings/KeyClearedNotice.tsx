interface Props {
  id: 'chat' | 'embeddings';
  /** Where the stored key is sent today. */
  server: string;
}

/** Said before saving: the stored key belongs to the old server and will be cleared. */
export function KeyClearedNotice({ id, server }: Props) {
  return (
    <p className="hint warn" role="status" data-testid={`${id}-key-cleared`}>
      The key will be cleared when you save: it was entered for {server} and is never sent to another server. Type
      the new server’s key above to keep one.
    </p>
  );
}
