import { AjvCompiler } from '@fastify/ajv-compiler';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';

/**
 * Fastify's validator and serializer compilers, shared by every app built in this process.
 *
 * Fastify builds them afresh for each app, and compiling the routes' schemas is two thirds of
 * what building an app costs (about 300 of 450 ms of CPU). A running Chime builds one app; the test
 * suite builds hundreds in each process, all from the same route schemas: module-level TypeBox
 * objects that nothing changes once created. So validators come from one pool (Ajv instances keyed
 * by shared schemas and options; Ajv keeps what it compiled by schema object), and serializers
 * are kept by schema object for each set of shared schemas and options.
 *
 * A custom validator factory makes Fastify take header schemas as written instead of lower-casing
 * their keys: Chime's are lower case already (server/schemas/common.ts, the Telegram webhook).
 */
const buildValidator = AjvCompiler();

type SerializerFactory = ReturnType<typeof SerializerSelector>;
type SerializerCompiler = ReturnType<SerializerFactory>;
type Serializer = ReturnType<SerializerCompiler>;

const serializersBySetting = new Map<string, WeakMap<object, Serializer>>();

const buildSerializer: SerializerFactory = (externalSchemas, options) => {
  const compile = SerializerSelector()(externalSchemas, options);
  const setting = JSON.stringify([externalSchemas ?? null, options ?? null]);
  let compiled = serializersBySetting.get(setting);
  if (!compiled) serializersBySetting.set(setting, (compiled = new WeakMap()));
  const bySchema = compiled;
  return (route) => {
    const schema = route.schema;
    if (typeof schema !== 'object' || schema === null) return compile(route);
    let serializer = bySchema.get(schema);
    if (!serializer) bySchema.set(schema, (serializer = compile(route)));
    return serializer;
  };
};

export const sharedSchemaCompilers = { buildValidator, buildSerializer };
