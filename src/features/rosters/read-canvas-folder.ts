import { dayOf, ExportFolder, IgnoredRows, type ExportFiles, type RosterExport } from './roster-export.js';

/**
 * Canvas's SIS import CSVs read into the import's payload; the mapping rules are in this feature's
 * README. Canvas's statuses: active, deleted (and, for enrollments, completed, inactive and
 * deleted_last_completed; for users, suspended).
 */
const FILES: Record<string, readonly string[]> = {
  'accounts.csv': ['account_id', 'parent_account_id', 'name', 'status', 'integration_id'],
  'terms.csv': ['term_id', 'name', 'status', 'integration_id', 'date_override_enrollment_type', 'start_date', 'end_date'],
  'users.csv': [
    'user_id', 'integration_id', 'login_id', 'password', 'ssha_password', 'authentication_provider_id', 'first_name', 'last_name',
    'full_name', 'sortable_name', 'short_name', 'email', 'status', 'pronouns', 'declared_user_type', 'canvas_password_notification', 'home_account',
  ],
  'courses.csv': [
    'course_id', 'integration_id', 'short_name', 'long_name', 'account_id', 'term_id', 'status', 'start_date', 'end_date',
    'course_format', 'blueprint_course_id', 'grade_passback_setting', 'homeroom_course', 'friendly_name',
  ],
  'sections.csv': ['section_id', 'course_id', 'integration_id', 'name', 'status', 'start_date', 'end_date'],
  'enrollments.csv': [
    'course_id', 'root_account', 'start_date', 'end_date', 'user_id', 'user_integration_id', 'role', 'role_id', 'section_id',
    'status', 'associated_user_id', 'limit_section_privileges', 'notify',
  ],
};

const ENROLLMENT_STATUS: Record<string, string> = {
  active: 'enrolled',
  completed: 'completed',
  inactive: 'dropped',
  deleted: 'dropped',
  deleted_last_completed: 'dropped',
};

const deleted = (row: Record<string, string>) => row.status?.toLowerCase() === 'deleted';

function userName(user: Record<string, string>): string {
  return user.full_name || [user.first_name, user.last_name].filter(Boolean).join(' ') || user.short_name || user.sortable_name || user.login_id || user.user_id;
}

/** Reads the SIS CSVs (a folder's, or files uploaded together). Canvas has no delta files: an import is the roster of what it lists. */
export function readCanvasFolder(files: ExportFiles): RosterExport {
  const folder = new ExportFolder(files, FILES);
  if (!folder.has('enrollments.csv') && !folder.has('users.csv') && !folder.has('sections.csv')) {
    throw new Error(`${folder.label}: none of enrollments.csv, users.csv, sections.csv: not a Canvas SIS import`);
  }
  const ignored = new IgnoredRows();
  const skipDeleted = (file: string, what: string) => (row: Record<string, string>) => {
    if (!deleted(row)) return true;
    ignored.add(file, `deleted (${what} are never deleted)`);
    return false;
  };

  const orgUnits = folder.read('accounts.csv').filter(skipDeleted('accounts.csv', 'units'))
    .map((account) => ({ code: account.account_id, name: account.name, parentCode: account.parent_account_id }));
  const classGroups = folder.read('terms.csv').filter(skipDeleted('terms.csv', 'class groups'))
    .map((term) => ({ code: term.term_id, name: term.name, startsOn: dayOf(term.start_date), endsOn: dayOf(term.end_date) }));
  const courseRows = new Map(folder.read('courses.csv').map((course) => [course.course_id, course]));
  const courses = [...courseRows.values()].filter(skipDeleted('courses.csv', 'courses'))
    .map((course) => ({ code: course.course_id, name: course.long_name || course.short_name }));

  // A section is a class of its course: the course's account is its unit, the course's term its class group.
  const classOf = (code: string, name: string | undefined, courseId: string | undefined) => {
    const course = courseId ? courseRows.get(courseId) : undefined;
    return { code, name, courseCode: courseId, orgUnitCode: course?.account_id, classGroupCode: course?.term_id };
  };
  const classes = new Map(folder.read('sections.csv').map((section) => [section.section_id, classOf(section.section_id, section.name, section.course_id)]));

  const users = new Map(folder.read('users.csv').map((user) => [user.user_id, user]));
  const teachersOf = new Map<string, Set<string>>();
  const teacherIds = new Set<string>();
  const studentIds = new Set<string>();
  const enrollments: Array<{ externalId: string; classCode: string; status: string }> = [];
  for (const enrollment of folder.read('enrollments.csv')) {
    const role = enrollment.role?.toLowerCase();
    // Without a section Canvas enrolls into the course's default section: a class coded as the course.
    let classCode = enrollment.section_id;
    if (!classCode && enrollment.course_id) {
      classCode = enrollment.course_id;
      const course = courseRows.get(classCode);
      if (!classes.has(classCode) && course) classes.set(classCode, classOf(classCode, course.long_name || course.short_name, classCode));
    }
    const user = users.get(enrollment.user_id);
    const status = user && deleted(user) ? 'dropped' : (ENROLLMENT_STATUS[enrollment.status?.toLowerCase() ?? ''] ?? enrollment.status);
    if (role === 'teacher') {
      teacherIds.add(enrollment.user_id);
      const set = teachersOf.get(classCode) ?? teachersOf.set(classCode, new Set()).get(classCode)!;
      if (status === 'enrolled') set.add(enrollment.user_id);
    } else if (role === 'student') {
      studentIds.add(enrollment.user_id);
      enrollments.push({ externalId: enrollment.user_id, classCode, status });
    } else ignored.add('enrollments.csv', `with role ${role ?? '(none)'} (only students enroll; teachers are linked to their sections)`);
  }

  const people: Array<Record<string, unknown>> = [];
  const teachers: Array<{ code: string; name: string }> = [];
  for (const user of users.values()) {
    if (teacherIds.has(user.user_id) && !studentIds.has(user.user_id)) teachers.push({ code: user.user_id, name: userName(user) });
    else people.push({ externalId: user.user_id, name: userName(user), email: user.email });
  }

  const classList = [...classes.values()].map((cls) => (teachersOf.has(cls.code) ? { ...cls, teacherCodes: [...teachersOf.get(cls.code)!] } : cls));
  return {
    payload: { orgUnits, courses, teachers, classGroups, classes: classList, people, enrollments },
    kind: 'bulk',
    unrecognisedFiles: folder.unrecognisedFiles,
    unrecognisedColumns: folder.unrecognisedColumns,
    ignored: ignored.list(),
  };
}
