import type { FastifyBaseLogger } from 'fastify';
import type { DB } from '../db/connection.ts';
import { mailLanguage } from '../mail/i18n.ts';
import type { MailOutcome, MailService } from '../mail/service.ts';
import { securityNoticeMail, type SecurityChange } from '../mail/templates.ts';
import { findAccountById } from '../repositories/accounts.ts';

type NoticeDeps = { db: DB; mail: MailService | null };

/** The notice's send, ready to go; null when there is no one to mail (email not configured, or no address). */
async function prepareNotice(deps: NoticeDeps, accountId: string, change: SecurityChange, name?: string): Promise<{ to: string; send: () => Promise<MailOutcome> } | null> {
  const mail = deps.mail;
  if (!mail) return null;
  const account = await findAccountById(deps.db, accountId);
  if (!account?.email) return null;
  const to = account.email;
  const content = securityNoticeMail(mailLanguage(account.locale), to, change, name);
  return { to, send: () => mail.send(account.id, 'security_notice', to, content) };
}

/**
 * Mails the account when how it signs in changed (a password change, two-factor codes on or off, a passkey removed),
 * where email is configured and the account has an address. In the background: the change is
 * done whether or not the mail leaves; failures are logged.
 */
export async function notifySecurityChange(deps: NoticeDeps & { log: FastifyBaseLogger }, accountId: string, change: SecurityChange, name?: string): Promise<void> {
  const notice = await prepareNotice(deps, accountId, change, name);
  if (!notice) return;
  void notice
    .send()
    .then((result) => {
      if (!result.ok) deps.log.warn({ code: result.code, error: result.error, change }, 'security notice not sent');
    })
    .catch((err: unknown) => deps.log.error({ err, change }, 'security notice failed'));
}

/**
 * The same notice, waited for: for the administrator's command, which says whether it left (a
 * command line process ends when its work does, so nothing can be left in the background).
 */
export async function sendSecurityNotice(deps: NoticeDeps, accountId: string, change: SecurityChange, name?: string): Promise<(MailOutcome & { to: string }) | null> {
  const notice = await prepareNotice(deps, accountId, change, name);
  return notice ? { ...(await notice.send()), to: notice.to } : null;
}
