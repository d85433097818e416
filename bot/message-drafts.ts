/**
 * What "Remind me about this" knows about the message between the command and its modal.
 *
 * Discord sends the message (with its text, even without the Message Content intent) only with the
 * command; the modal submit carries just the modal's custom id (100 characters at most) and the
 * fields. Fetching the message again at submit time would need the Message Content intent and
 * access to the channel, which a user install does not have. So the quote is read at command time
 * and kept here, in memory, under the command's interaction id (the modal's custom id), until the
 * modal comes back or DRAFT_TTL_MS passes. After a restart the draft is gone and the user is asked
 * to run the command again (bot/components/remind-message-modal.ts).
 */
import type { QuotedMessage } from './replies/message-quote.ts';

/** A modal left open longer than this is answered "run the command again". */
export const DRAFT_TTL_MS = 30 * 60_000;
/** Drafts kept at most (the oldest go first): a bound on memory whatever the traffic. */
const MAX_DRAFTS = 1000;

export interface MessageDraft {
  message: QuotedMessage;
  /** Whoever opened the modal: only they can submit it, but the check is cheap. */
  userId: string;
  createdMs: number;
}

const drafts = new Map<string, MessageDraft>();

export function saveDraft(key: string, draft: MessageDraft): void {
  for (const [k, d] of drafts) if (draft.createdMs - d.createdMs > DRAFT_TTL_MS) drafts.delete(k);
  while (drafts.size >= MAX_DRAFTS) drafts.delete(drafts.keys().next().value!);
  drafts.set(key, draft);
}

/** The draft for the modal, once: null if unknown, expired or someone else's. */
export function takeDraft(key: string, userId: string, nowMs = Date.now()): MessageDraft | null {
  const draft = drafts.get(key);
  if (!draft || draft.userId !== userId) return null;
  drafts.delete(key);
  return nowMs - draft.createdMs > DRAFT_TTL_MS ? null : draft;
}
