/** The plain-text mails put a label before each link: French takes a space before the colon (issue 27 #18). */
import { describe, expect, it } from 'vitest';
import { confirmationMail, passwordResetMail, reminderMail } from '../../../../server/mail/templates.ts';

const LINK = 'http://localhost:3000/x?token=abc';

describe('mail templates: a label and its link', () => {
  it('French: "mot de passe : http…", never "mot de passe: http…"', () => {
    const reset = passwordResetMail('fr', 'a@example.com', LINK).text;
    expect(reset).toContain(`Choisir un nouveau mot de passe : ${LINK}`);
    expect(confirmationMail('fr', 'ana', LINK).text).toMatch(new RegExp(`\\S : ${LINK.replaceAll('?', '\\?')}`));
    const reminder = reminderMail({ lang: 'fr', message: 'Bonjour', occurrenceUtc: '2030-01-01T09:00:00Z', timezone: 'Europe/Paris', late: false, link: LINK, address: 'a@example.com', username: 'ana', test: false }).text;
    expect(reminder).toMatch(new RegExp(`\\S : ${LINK.replaceAll('?', '\\?')}`));
    for (const text of [reset, reminder]) expect(text).not.toMatch(/\S: http/);
  });

  it('English and Spanish: no space before the colon', () => {
    expect(passwordResetMail('en', 'a@example.com', LINK).text).toMatch(new RegExp(`\\S: ${LINK.replaceAll('?', '\\?')}`));
    expect(passwordResetMail('es', 'a@example.com', LINK).text).toMatch(new RegExp(`\\S: ${LINK.replaceAll('?', '\\?')}`));
  });
});

describe('mail templates: the reminder mail’s action links', () => {
  const base = { lang: 'en' as const, message: 'Hi', occurrenceUtc: '2030-01-01T09:00:00Z', timezone: 'UTC', late: false, link: null, address: 'a@example.com', username: 'ana', test: false };

  it('are escaped in the HTML and labelled in the text, under the message', () => {
    const mail = reminderMail({ ...base, actions: [{ label: 'Snooze <10> & "go"', url: 'https://chime.example/a/x"><script>?q=1&r=2' }] });
    expect(mail.html).toContain('href="https://chime.example/a/x&quot;&gt;&lt;script&gt;?q=1&amp;r=2"');
    expect(mail.html).toContain('>Snooze &lt;10&gt; &amp; &quot;go&quot;</a>');
    expect(mail.html).not.toContain('<script>');
    expect(mail.text).toContain('Snooze <10> & "go": https://chime.example/a/x"><script>?q=1&r=2');
    expect(mail.text.indexOf('Hi')).toBeLessThan(mail.text.indexOf('Snooze'));
  });

  it('leave no trace when there are none (a test send)', () => {
    const mail = reminderMail({ ...base, test: true, actions: [] });
    expect(mail.html).not.toContain('/a/');
    // Without actions the body is what it was before action links existed.
    expect(reminderMail(base).html).toBe(mail.html);
    expect(reminderMail(base).text).not.toContain('/a/');
  });
});
