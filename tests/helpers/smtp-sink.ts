/**
 * A real SMTP server on 127.0.0.1 (the smtp-server package) that keeps every message it receives,
 * parsed by mailparser: what the email tests read instead of mocking the transport.
 */
import { type AddressObject, type ParsedMail, simpleParser } from 'mailparser';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  /** Envelope recipients (RCPT TO), lower-cased. */
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string;
  parsed: ParsedMail;
}

export interface SmtpSink {
  port: number;
  /** SMTP_URL for Chime (plain SMTP, no TLS, any login accepted). */
  url: string;
  messages: ReceivedMail[];
  /** Recipients answered 550 (unknown user) from now on. */
  reject: Set<string>;
  /** Logins are refused (535) while true. */
  refuseLogins: boolean;
  /** Resolves with the first message (received or arriving) matching `match`; rejects after `timeoutMs`. */
  waitFor(match: (m: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

export async function startSmtpSink(): Promise<SmtpSink> {
  const messages: ReceivedMail[] = [];
  const waiters: Array<{ match: (m: ReceivedMail) => boolean; resolve: (m: ReceivedMail) => void }> = [];
  const reject = new Set<string>();
  const state = { refuseLogins: false };
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    // Plain SMTP on loopback: let clients log in without TLS, as Chime does with smtp:// URLs.
    allowInsecureAuth: true,
    logger: false,
    onAuth: (_auth, _session, callback) => {
      if (state.refuseLogins) return callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
      callback(null, { user: 'chime' });
    },
    onRcptTo: (address, _session, callback) => {
      if (reject.has(address.address.toLowerCase())) {
        const err = Object.assign(new Error('5.1.1 No such user here'), { responseCode: 550 });
        return callback(err);
      }
      callback();
    },
    onData: (stream, session, callback) => {
      simpleParser(stream)
        .then((parsed) => {
          const mail: ReceivedMail = {
            to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
            from: addressText(parsed.from),
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : '',
            parsed,
          };
          messages.push(mail);
          for (const w of [...waiters]) {
            if (w.match(mail)) {
              waiters.splice(waiters.indexOf(w), 1);
              w.resolve(mail);
            }
          }
          callback();
        })
        .catch((err: Error) => callback(err));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    get refuseLogins() {
      return state.refuseLogins;
    },
    set refuseLogins(value: boolean) {
      state.refuseLogins = value;
    },
    port,
    url: `smtp://chime:secret-password@127.0.0.1:${port}`,
    messages,
    reject,
    waitFor(match, timeoutMs = 10_000) {
      const found = messages.find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, rejectPromise) => {
        const waiter = { match, resolve: (m: ReceivedMail) => (clearTimeout(timer), resolve(m)) };
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(waiter), 1);
          rejectPromise(new Error(`no matching mail within ${timeoutMs} ms (received: ${messages.map((m) => `${m.to.join(',')} "${m.subject}"`).join('; ') || 'none'})`));
        }, timeoutMs);
        waiters.push(waiter);
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function addressText(a: AddressObject | AddressObject[] | undefined): string {
  if (!a) return '';
  return (Array.isArray(a) ? a : [a]).map((x) => x.text).join(', ');
}

/** The first URL of a mail's text starting with `prefix`. */
export function linkIn(mail: ReceivedMail, prefix: string): string {
  const found = mail.text.match(/https?:\/\/\S+/g)?.find((u) => u.startsWith(prefix));
  if (!found) throw new Error(`no link starting with ${prefix} in:\n${mail.text}`);
  return found;
}
