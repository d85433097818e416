import { AjvCompiler } from '@fastify/ajv-compiler';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';

/**
 * Fastify's validator and serializer compilers, shared by every app built in this process.
 *
 * Fastify builds them afresh for each app, and compiling the routes' schemas is two thirds of
 * what building an app costs (about 300 of 450 ms of CPU). A running Chime builds one app; the test
 * suite builds hundreds in each process, all from the same route schemas. So a compiled validator
 * or serializer is kept for each set of shared schemas and options, and found again by its schema:
 * by the object first, then by the schema's JSON, for the schemas a route writes inline
 * (`Type.Array(…)` in its options is a new object each time an app registers the route, with the
 * same JSON). Ajv and fast-json-stringify read only the JSON; a cached function is the one they
 * would compile again.
 *
 * A custom validator factory makes Fastify take header schemas as written instead of lower-casing
 * their keys: Chime's are lower case already (server/schemas/common.ts, the Telegram webhook).
 */
type RouteWithSchema = { schema?: unknown };

/** Wraps a compiler factory so that each setting's compiled functions are found again by schema. */
function remembering<Args extends unknown[], Route extends RouteWithSchema, Compiled>(
  factory: (...args: Args) => (route: Route) => Compiled,
): (...args: Args) => (route: Route) => Compiled {
  const bySetting = new Map<string, { byObject: WeakMap<object, Compiled>; byJson: Map<string, Compiled> }>();
  return (...args) => {
    const compile = factory(...args);
    const setting = JSON.stringify(args.map((arg) => arg ?? null));
    let cache = bySetting.get(setting);
    if (!cache) bySetting.set(setting, (cache = { byObject: new WeakMap(), byJson: new Map() }));
    const { byObject, byJson } = cache;
    return (route) => {
      const schema = route.schema;
      if (typeof schema !== 'object' || schema === null) return compile(route);
      let compiled = byObject.get(schema);
      if (compiled !== undefined) return compiled;
      const json = JSON.stringify(schema);
      compiled = byJson.get(json);
      if (compiled === undefined) byJson.set(json, (compiled = compile(route)));
      byObject.set(schema, compiled);
      return compiled;
    };
  };
}

const buildValidator = remembering(AjvCompiler());
const buildSerializer = remembering(SerializerSelector());

export const sharedSchemaCompilers = { buildValidator, buildSerializer };
