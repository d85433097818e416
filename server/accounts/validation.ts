import { AppError } from '../errors.ts';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../lib/password.ts';
import { canonicalTimeZone } from '../time/zoned.ts';

// Deliberately simple, as the dashboard checks it: one @, something on each side, a dot in the domain.
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function requireEmail(value: unknown): string {
  const email = typeof value === 'string' ? value.trim() : '';
  if (!email) throw new AppError('EMAIL_INVALID', 'Email is required');
  if (email.length > 254 || !EMAIL_PATTERN.test(email)) throw new AppError('EMAIL_INVALID', 'Please enter a valid email address');
  return email;
}

export function requireUsername(value: unknown): string {
  const username = typeof value === 'string' ? value.trim() : '';
  if (!username) throw new AppError('USERNAME_REQUIRED', 'Username is required');
  if (username.length > 64) throw new AppError('VALIDATION_FAILED', 'Username must be at most 64 characters');
  return username;
}

export function requireNewPassword(value: unknown, field = 'Password'): string {
  const password = typeof value === 'string' ? value : '';
  if (!password) throw new AppError('PASSWORD_REQUIRED', `${field} is required`);
  // Worded the same on every form ("Password must be at least 8 characters"), like the dashboard.
  if (password.length < MIN_PASSWORD_LENGTH) throw new AppError('PASSWORD_TOO_SHORT', `Password must be at least ${MIN_PASSWORD_LENGTH} characters`);
  if (password.length > MAX_PASSWORD_LENGTH) throw new AppError('VALIDATION_FAILED', `${field} must be at most ${MAX_PASSWORD_LENGTH} characters`);
  return password;
}

export function requireTimeZone(value: unknown): string {
  const zone = canonicalTimeZone(typeof value === 'string' ? value.trim() : value);
  if (!zone) throw new AppError('INVALID_TIMEZONE', `"${String(value).slice(0, 64)}" is not a valid IANA time zone (for example Europe/Paris)`);
  return zone;
}
