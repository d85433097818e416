import { AppError } from '../../errors.ts';
import { requestConfirmation } from '../../mail/email-addresses.ts';
import type { DestinationModule } from '../types.ts';
import { emailAddressOf } from './address.ts';
import { emailSenderOf } from './sender.ts';

/** RFC 5321's limits: 254 characters in all, 64 before the @. */
const MAX_ADDRESS = 254;
const MAX_LOCAL_PART = 64;
// One @, no spaces or angle brackets (they would turn into extra headers or recipients), a dot in the domain.
const ADDRESS_PATTERN = /^[^\s@<>(),;:"\\[\]]+@[^\s@<>(),;:"\\[\]]+\.[^\s@<>(),;:"\\[\]]+$/;

/**
 * A syntactically valid address, trimmed and lower-cased ("Ann@X.org" and "ann@x.org" are one
 * destination and one confirmation); throws EMAIL_INVALID naming `field`.
 */
export function requireEmailAddress(value: unknown, field: string): string {
  const address = typeof value === 'string' ? value.trim() : '';
  if (!address) throw new AppError('EMAIL_INVALID', `${field} is required`);
  if (address.length > MAX_ADDRESS || !ADDRESS_PATTERN.test(address) || address.indexOf('@') > MAX_LOCAL_PART) {
    throw new AppError('EMAIL_INVALID', `${field} is not a valid email address`);
  }
  return address.toLowerCase();
}

/**
 * Email (docs/operations.md "Email"): metadata `{ address }`. An address receives reminders only once its
 * owner confirmed the link Chime mailed to it; until then its deliveries fail with
 * EMAIL_NOT_CONFIRMED. Saving a reminder with an unconfirmed address mails that link (`onSaved`).
 */
export const emailDestination: DestinationModule = {
  type: 'email',
  cap: 5,
  noun: 'email',
  requiresDiscordIdentity: false,
  parseMetadata(meta, where) {
    return { address: requireEmailAddress(meta.address, `${where}.metadata.address`) };
  },
  async preflight(deps) {
    if (!deps.config.mail) throw new AppError('MAIL_NOT_CONFIGURED', 'Email is not configured on this server: ask its administrator');
  },
  onSaved(deps, accountId, metadata) {
    if (!deps.mail) return;
    // The save does not wait for the SMTP server, nor fail because of it (the dashboard shows the
    // address as unconfirmed and offers to send the link again).
    void requestConfirmation({ db: deps.db, config: deps.config, mail: deps.mail }, accountId, emailAddressOf(metadata), { explicit: false })
      .then((r) => {
        if (r.error) deps.log.warn({ code: r.error.code, error: r.error.error }, 'email confirmation not sent');
      })
      .catch((err: unknown) => deps.log.error({ err }, 'email confirmation failed'));
  },
  label(meta) {
    return `email ${emailAddressOf(meta) || '?'}`;
  },
  createSender: emailSenderOf,
};
