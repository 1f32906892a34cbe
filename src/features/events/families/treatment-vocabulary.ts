/** Words of the treatment events that the CLI's options name; a file of their own so the CLI can list them without loading TypeBox. */
export const TREATMENT_OUTCOMES = ['resolved', 'unfounded', 'no-response', 'duplicate', 'other'] as const;
export type TreatmentOutcome = (typeof TREATMENT_OUTCOMES)[number];
/** What an operator may close a case with early; `resolved` is reserved to a completed flow. */
export const EARLY_OUTCOMES = TREATMENT_OUTCOMES.filter((o) => o !== 'resolved');
