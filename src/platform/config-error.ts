/** A refused environment variable: its own file, so the CLI's error printing does not load the config's TypeBox rules. */
export class ConfigError extends Error {}
