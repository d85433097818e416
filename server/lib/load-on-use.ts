/**
 * Packages a deployment may never use, loaded on first use instead of at start: `pg` (only with a
 * postgres:// DATABASE_URL), `nodemailer` (only with SMTP_URL), `@discordjs/rest` (only with
 * Discord settings; it brings its own copy of undici) and `@simplewebauthn/server` (only when
 * someone adds or uses a passkey; its 70 modules took half a second of every start and every
 * `npm run admin` command). Each costs about 10 MB in every thread that
 * imports it (the API thread and each delivery thread), which a SQLite deployment without email or
 * Discord would otherwise pay for nothing. `pg` and `nodemailer` are CommonJS, so a synchronous
 * require works from these ES modules. @discordjs/rest ships an ES and a CommonJS build whose
 * error classes differ, and the Discord senders import the ES one, so it is imported, not required.
 */
import { createRequire } from 'node:module';
import type Pg from 'pg';
import type Nodemailer from 'nodemailer';
import type * as DiscordRest from '@discordjs/rest';
import type * as WebAuthn from '@simplewebauthn/server';

const require = createRequire(import.meta.url);

let pg: typeof Pg | null = null;
let nodemailer: typeof Nodemailer | null = null;
let discordRest: typeof DiscordRest | null = null;
let webAuthn: typeof WebAuthn | null = null;

export const loadPg = (): typeof Pg => (pg ??= require('pg') as typeof Pg);
export const loadNodemailer = (): typeof Nodemailer => (nodemailer ??= require('nodemailer') as typeof Nodemailer);
/** @discordjs/rest, imported on first use (the ES build, the one the Discord senders import). */
export const importDiscordRest = async (): Promise<typeof DiscordRest> => (discordRest ??= await import('@discordjs/rest'));
/** @simplewebauthn/server (an ES module), imported on the first passkey registration or sign-in. */
export const importWebAuthn = async (): Promise<typeof WebAuthn> => (webAuthn ??= await import('@simplewebauthn/server'));
/**
 * @discordjs/rest if something imported it already, else null: an error cannot come from a package
 * that was never loaded, so error checks need not load it.
 */
export const loadedDiscordRest = (): typeof DiscordRest | null => discordRest;
