/**
 * @deprecated Moved to server/destinations/webhook/sender.ts (the webhook destination module).
 * This re-export only keeps two importers compiling until they import from there:
 * tests/ssrf-guard.test.ts and server/reminders/destination-actions.ts (TestOutcome, now in
 * ./types.ts). Delete it afterwards: the scheduler knows no destination type.
 */
export { createWebhookSender, type WebhookSender } from '../destinations/webhook/sender.ts';
export type { TestOutcome } from './types.ts';
