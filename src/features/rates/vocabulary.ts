/** The roster groupings of a response-rate breakdown (light: the CLI names them as choices). */
export const GROUP_KINDS = ['class', 'classGroup', 'course', 'teacher', 'orgUnit'] as const;
export type GroupKind = (typeof GROUP_KINDS)[number];
