import { describe, expect, it } from 'vitest';
import { alertLeads } from '../../../bot/replies/format.ts';

describe('alertLeads', () => {
  it('says each alert in days, hours or minutes, largest first, in the account\'s language', () => {
    expect(alertLeads('en-US', [30, 1440, 120])).toBe('1 day, 2 hours and 30 minutes');
    // French puts a no-break space between some numbers and their unit.
    expect(alertLeads('fr', [90, 10080])).toMatch(/^7\sjours et 90\sminutes$/);
    expect(alertLeads('es-ES', [1])).toBe('1 minuto');
  });
});
