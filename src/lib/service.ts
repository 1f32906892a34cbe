/**
 * Every service takes `(db, deps, input)`: the database or the caller's transaction, the context's
 * providers it uses, and one input object. A service that uses no provider still takes the slot
 * (typed `NoDeps`), so every caller hands over its context the same way and a service that later
 * needs the clock changes no caller.
 */
export type NoDeps = object;

/** What a helper without a context hands to a service that uses no provider. */
export const noDeps: NoDeps = Object.freeze({});
