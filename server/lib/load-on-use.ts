/**
 * Packages a deployment may never use, loaded on first use instead of at start: `pg` (only with a
 * postgres:// DATABASE_URL) and `nodemailer` (only with SMTP_URL). Each costs about 10 MB in every
 * thread that imports it (the API thread and each delivery thread), which a SQLite deployment
 * without email would otherwise pay for nothing. Both are CommonJS, so a synchronous require works
 * from these ES modules.
 */
import { createRequire } from 'node:module';
import type Pg from 'pg';
import type Nodemailer from 'nodemailer';

const require = createRequire(import.meta.url);

let pg: typeof Pg | null = null;
let nodemailer: typeof Nodemailer | null = null;

export const loadPg = (): typeof Pg => (pg ??= require('pg') as typeof Pg);
export const loadNodemailer = (): typeof Nodemailer => (nodemailer ??= require('nodemailer') as typeof Nodemailer);
