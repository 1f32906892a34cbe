/** Words of the treatment services that the CLI's options name; a file of their own so the CLI can list them without loading drizzle. */
export const TREATMENT_STATUSES = ['open', 'closed'] as const;
export type TreatmentStatus = (typeof TREATMENT_STATUSES)[number];
