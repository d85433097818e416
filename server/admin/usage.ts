/**
 * The command line's usage text, apart from the commands: `npm run admin` prints it without
 * loading what a command needs (each command is imported when it runs, server/admin-cli.ts).
 */
export const ACCOUNTS_USAGE =
  'accounts list [--limit N] [--offset N] | accounts show <account> | accounts disable <account> | accounts enable <account> | accounts delete <account> --yes | accounts remove-2fa <account> --yes | accounts remove-passkeys <account> --yes';

export const USAGE = [
  `Usage: npm run admin -- [--json] ${ACCOUNTS_USAGE.split(' | ').join('\n       npm run admin -- [--json] ')}`,
  'stats',
  'doctor',
  'backup [file]',
  'restore <file>',
  'reset-password <email>',
  'copy-from-sqlite <sqlite-file>',
].join('\n       npm run admin -- [--json] ');
