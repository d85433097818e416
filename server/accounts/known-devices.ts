/**
 * Known devices (OWASP "device cookies", docs/security.md): after a full sign-in with a password
 * the browser gets a long-lived `chime_device` cookie, a random 256-bit token of which only the
 * hash is stored, per account it signed into. The login throttle judges a sign-in presenting it on
 * the device's own failure budget, so the owner is never slowed by what strangers do.
 */
import { newToken, sha256Hex } from '../lib/ids.ts';
import type { DB } from '../db/connection.ts';
import type { Executor } from '../repositories/executor.ts';
import { findKnownDeviceByEmail, rememberKnownDevice, renameKnownDevice, trimKnownDevices } from '../repositories/known-devices.ts';

export const KNOWN_DEVICE_COOKIE = 'chime_device';
/** A device not used to sign in for this long is a stranger again; the cookie lasts as long. */
export const KNOWN_DEVICE_TTL_MS = 365 * 24 * 60 * 60 * 1000;
/** Devices remembered per account (the least recently used are forgotten first). */
const MAX_KNOWN_DEVICES = 20;

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** The id of the known device this cookie token is for the account of `emailNormalized`, or null. */
export async function recognizeDevice(db: Executor, token: string | undefined, emailNormalized: string, now = Date.now()): Promise<string | null> {
  // Looked up whatever the token looks like, so a made-up cookie takes as long as a real one.
  const tokenHash = sha256Hex(token && TOKEN_SHAPE.test(token) ? token : '');
  const row = await findKnownDeviceByEmail(db, tokenHash, emailNormalized, new Date(now - KNOWN_DEVICE_TTL_MS).toISOString());
  return row?.id ?? null;
}

/**
 * After a full sign-in: remembers the browser for the account and answers the token its cookie
 * must hold from now on. The token is new each time; the accounts the browser was known for
 * follow it, so one browser keeps one cookie for all its accounts, and a token planted in the
 * browser by someone else is worth nothing once the owner has signed in.
 */
export async function rememberDevice(db: DB, accountId: string, previous: string | undefined, now = Date.now()): Promise<string> {
  const token = newToken();
  const tokenHash = sha256Hex(token);
  const at = new Date(now).toISOString();
  await db.transaction().execute(async (trx) => {
    if (previous && TOKEN_SHAPE.test(previous)) await renameKnownDevice(trx, sha256Hex(previous), tokenHash);
    await rememberKnownDevice(trx, accountId, tokenHash, at);
    await trimKnownDevices(trx, accountId, MAX_KNOWN_DEVICES);
  });
  return token;
}
