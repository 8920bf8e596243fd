-- A persona's avatar: one emoji or one or two letters (docs/persona-avatar.md).
-- NULL shows the name's first character, as before this column existed.
ALTER TABLE personas ADD COLUMN avatar text NULL;
