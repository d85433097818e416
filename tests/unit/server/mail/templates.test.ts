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
