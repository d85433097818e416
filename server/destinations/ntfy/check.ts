import type { Config } from '../../config.ts';
import { checkRequest } from '../push-common/check.ts';
import type { DestinationMetadata } from '../types.ts';
import { NTFY_USER_AGENT } from './sender.ts';

/**
 * With an access token: `GET /v1/account` with it (401 for a wrong or revoked token). Without one:
 * `GET /v1/health`, so a mistyped server address is refused now rather than at the first reminder.
 * A 404 (a server older than these endpoints) cannot tell, and passes.
 */
export async function checkNtfy(config: Pick<Config, 'webhookAllowPrivateTargets'>, metadata: DestinationMetadata, token: string | null): Promise<void> {
  const server = String(metadata.server);
  const headers: Record<string, string> = { 'user-agent': NTFY_USER_AGENT, accept: 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  await checkRequest(config, 'NTFY', new URL(`${server}/v1/${token ? 'account' : 'health'}`), { method: 'GET', headers }, [404]);
}
