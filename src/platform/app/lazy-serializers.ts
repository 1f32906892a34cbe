import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';

const compilers = SerializerSelector();

/**
 * Fastify's own response serializers (fast-json-stringify), each compiled when its route first
 * answers with that status instead of all of them at start-up: compiling every route's took about
 * nine tenths of `app.ready()` (bench/README.md, "app start-up"), paid by every process and every
 * test file, most of whose routes never answer.
 */
export const lazySerializers: typeof compilers = (externalSchemas, options) => {
  const compile = compilers(externalSchemas, options);
  return (route) => {
    let serialize: ((doc: unknown) => string) | undefined;
    return (doc) => (serialize ??= compile(route))(doc);
  };
};
