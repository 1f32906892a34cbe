/** Words of the roster services that the CLI's options name; a file of their own so the CLI can list them without loading drizzle. */
export const ENROLLMENT_STATUSES = ['enrolled', 'completed', 'dropped'] as const;
export type EnrollmentStatus = (typeof ENROLLMENT_STATUSES)[number];
