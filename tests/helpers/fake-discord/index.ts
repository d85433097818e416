/**
 * Fake Discord (REST + OAuth2 + Gateway) for tests and local development.
 * See tests/helpers/fake-discord/README.md for usage.
 */
export { FakeDiscord, startFakeDiscord } from './fake.ts';
export { FakeGateway, Intents, Op } from './gateway.ts';
export * from './permissions.ts';
export type * from './types.ts';
export { snowflake, snowflakeTimestamp, waitFor, sleep } from './util.ts';
