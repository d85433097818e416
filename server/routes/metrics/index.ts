import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

// Placeholder: filled in by the scheduler and delivery work.
const routes: FastifyPluginAsyncTypebox = async () => {};
export default routes;
