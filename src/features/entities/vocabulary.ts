/** Words of the entity files that the CLI's options name; a file of their own so the CLI can list them without loading the parser (csv-parse, TypeBox). */
export const ENTITY_KINDS = ['course', 'teacher', 'unit'] as const;
export type EntityKind = (typeof ENTITY_KINDS)[number];
