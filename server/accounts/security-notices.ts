import type { FastifyBaseLogger } from 'fastify';
import type { DB } from '../db/connection.ts';
import { mailLanguage } from '../mail/i18n.ts';
import type { MailService } from '../mail/service.ts';
import { securityNoticeMail, type SecurityChange } from '../mail/templates.ts';
import { findAccountById } from '../repositories/accounts.ts';

/**
 * Mails the account when how it signs in changed (a password change, two-factor codes on or off, a passkey removed),
 * where email is configured and the account has an address. In the background: the change is
 * done whether or not the mail leaves; failures are logged.
 */
export async function notifySecurityChange(deps: { db: DB; mail: MailService | null; log: FastifyBaseLogger }, accountId: string, change: SecurityChange, name?: string): Promise<void> {
  if (!deps.mail) return;
  const account = await findAccountById(deps.db, accountId);
  if (!account?.email) return;
  const content = securityNoticeMail(mailLanguage(account.locale), account.email, change, name);
  void deps.mail
    .send(account.id, 'security_notice', account.email, content)
    .then((result) => {
      if (!result.ok) deps.log.warn({ code: result.code, error: result.error, change }, 'security notice not sent');
    })
    .catch((err: unknown) => deps.log.error({ err, change }, 'security notice failed'));
}
