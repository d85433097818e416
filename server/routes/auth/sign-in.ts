import { type Static, Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Account, Session } from '../../db/database.ts';
import { accountLanguage, LANGUAGES } from '../../lib/language.ts';
import { Nullable } from '../../schemas/common.ts';

export const LoginResponse = Type.Object({
  token: Type.String(),
  expires_at: Type.String(),
  id: Type.String(),
  email: Type.Union([Type.String(), Type.Null()]),
  username: Type.String(),
  /** The account's language (its mails and bot messages): the dashboard takes it on unless the browser has a choice of its own. */
  language: Nullable(Type.Union(LANGUAGES.map((l) => Type.Literal(l)))),
});

/** The answer of every sign-in (password, passkey, Discord callback, Discord setup): one shape, one place. */
export const presentLogin = (account: Account, token: string, session: Session): Static<typeof LoginResponse> => ({
  token,
  expires_at: session.expires_at,
  id: account.id,
  email: account.email,
  username: account.username,
  language: accountLanguage(account.locale),
});

/** What the accounts service answers when a sign-in in Chime's own forms (a password, its code, a passkey) succeeded. */
export interface SignedIn {
  account: Account;
  token: string;
  session: Session;
  /** The known-device token (docs/security.md "Known devices"), renewed at each such sign-in. */
  deviceToken: string;
}

/**
 * Ends such a sign-in the one way: the session cookie, the known-device cookie, and the login
 * answer. A sign-in that leaves either cookie out would differ from the others for no reason the
 * owner could see (a passkey sign-in that did not make the browser known, for instance).
 */
export function answerSignIn(app: FastifyInstance, reply: FastifyReply, signedIn: SignedIn): Static<typeof LoginResponse> {
  app.setSessionCookie(reply, signedIn.token, new Date(signedIn.session.expires_at));
  app.setKnownDeviceCookie(reply, signedIn.deviceToken);
  return presentLogin(signedIn.account, signedIn.token, signedIn.session);
}
