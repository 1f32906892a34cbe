import { dayOf, ExportFolder, IgnoredRows, type ExportFiles, type RosterExport } from './roster-export.js';

/**
 * A OneRoster 1.2 CSV package (1EdTech's CSV binding) read into the import's payload; the mapping
 * rules are in this feature's README. Columns are read by header name, so 1.1, 1.2 and 1.2.1 files
 * (1.1 keeps a user's role in users.csv, 1.2 in roles.csv) import alike.
 */
const COMMON = ['sourcedId', 'status', 'dateLastModified'];
const FILES: Record<string, readonly string[]> = {
  'manifest.csv': ['propertyName', 'value'],
  'orgs.csv': [...COMMON, 'name', 'type', 'identifier', 'parentSourcedId'],
  'academicSessions.csv': [...COMMON, 'title', 'type', 'startDate', 'endDate', 'parentSourcedId', 'schoolYear'],
  'courses.csv': [...COMMON, 'schoolYearSourcedId', 'title', 'courseCode', 'grades', 'orgSourcedId', 'subjects', 'subjectCodes'],
  'classes.csv': [...COMMON, 'title', 'grades', 'courseSourcedId', 'classCode', 'classType', 'location', 'schoolSourcedId', 'termSourcedIds', 'subjects', 'subjectCodes', 'periods'],
  'users.csv': [
    ...COMMON, 'enabledUser', 'orgSourcedIds', 'role', 'username', 'userIds', 'givenName', 'familyName', 'middleName', 'identifier',
    'email', 'sms', 'phone', 'agentSourcedIds', 'grades', 'password', 'userMasterIdentifier', 'resourceSourcedIds',
    'preferredGivenName', 'preferredMiddleName', 'preferredFamilyName', 'primaryOrgSourcedId', 'pronouns',
  ],
  'roles.csv': [...COMMON, 'userSourcedId', 'roleType', 'role', 'beginDate', 'endDate', 'orgSourcedId', 'userProfileSourcedId'],
  'enrollments.csv': [...COMMON, 'classSourcedId', 'schoolSourcedId', 'userSourcedId', 'role', 'primary', 'beginDate', 'endDate'],
};

const deleted = (row: Record<string, string>) => row.status?.toLowerCase() === 'tobedeleted';
const list = (cell: string | undefined) => (cell ?? '').split(',').map((part) => part.trim()).filter(Boolean);

function userName(user: Record<string, string>): string {
  const full = [user.preferredGivenName ?? user.givenName, user.preferredFamilyName ?? user.familyName].filter(Boolean).join(' ');
  return full || user.username || user.sourcedId;
}

/** Reads the package's files (a folder, or files uploaded together); `today` (YYYY-MM-DD) decides which enrollments have ended. Throws when it is no OneRoster package. */
export function readOneRosterFolder(files: ExportFiles, today: string): RosterExport {
  const folder = new ExportFolder(files, FILES);
  if (!folder.has('manifest.csv')) throw new Error(`${folder.label}: no manifest.csv, so not a OneRoster CSV package`);
  const manifest = new Map(folder.read('manifest.csv').map((row) => [row.propertyName, row.value]));
  const version = manifest.get('oneroster.version');
  if (!version?.startsWith('1.')) throw new Error(`manifest.csv names oneroster.version ${version ?? '(none)'}; 1.1 and 1.2 packages are read`);
  const modeOf = (file: string) => manifest.get(`file.${file.replace(/\.csv$/, '')}`)?.toLowerCase() ?? (folder.has(file) ? 'bulk' : 'absent');
  // A file the manifest marks absent is not read, even when present (the binding's rule).
  const read = (file: string) => (modeOf(file) === 'absent' ? [] : folder.read(file));
  const ignored = new IgnoredRows();

  const orgUnits = read('orgs.csv').flatMap((org) => {
    if (deleted(org)) return ignored.add('orgs.csv', 'tobedeleted (units are never deleted)'), [];
    return [{ code: org.sourcedId, name: org.name, parentCode: org.parentSourcedId }];
  });
  const classGroups = read('academicSessions.csv').flatMap((session) => {
    if (deleted(session)) return ignored.add('academicSessions.csv', 'tobedeleted (class groups are never deleted)'), [];
    return [{ code: session.sourcedId, name: session.title, startsOn: dayOf(session.startDate), endsOn: dayOf(session.endDate) }];
  });
  const courses = read('courses.csv').flatMap((course) => {
    if (deleted(course)) return ignored.add('courses.csv', 'tobedeleted (courses are never deleted)'), [];
    return [{ code: course.sourcedId, name: course.title }];
  });

  const users = new Map(read('users.csv').map((user) => [user.sourcedId, user]));
  const roles = new Map<string, Set<string>>();
  const addRole = (userId: string | undefined, role: string | undefined) => {
    if (userId && role) (roles.get(userId) ?? roles.set(userId, new Set()).get(userId)!).add(role.toLowerCase());
  };
  for (const user of users.values()) addRole(user.sourcedId, user.role);
  for (const role of read('roles.csv')) if (!deleted(role)) addRole(role.userSourcedId, role.role);

  const classRows = read('classes.csv');
  const classes = new Map(classRows.map((cls) => [cls.sourcedId, cls]));
  const teachersOf = new Map<string, Set<string>>();
  const enrollments: Array<{ externalId: string; classCode: string; status: string }> = [];
  for (const enrollment of read('enrollments.csv')) {
    const role = enrollment.role?.toLowerCase();
    const user = users.get(enrollment.userSourcedId);
    const cls = classes.get(enrollment.classSourcedId);
    const gone = deleted(enrollment) || (user !== undefined && deleted(user)) || (cls !== undefined && deleted(cls));
    if (role === 'teacher') {
      addRole(enrollment.userSourcedId, 'teacher');
      const set = teachersOf.get(enrollment.classSourcedId) ?? teachersOf.set(enrollment.classSourcedId, new Set()).get(enrollment.classSourcedId)!;
      if (!gone) set.add(enrollment.userSourcedId);
    } else if (role === 'student') {
      addRole(enrollment.userSourcedId, 'student');
      const ended = enrollment.endDate !== undefined && dayOf(enrollment.endDate)! < today;
      enrollments.push({ externalId: enrollment.userSourcedId, classCode: enrollment.classSourcedId, status: gone ? 'dropped' : ended ? 'completed' : 'enrolled' });
    } else ignored.add('enrollments.csv', `with role ${role ?? '(none)'} (only students enroll; teachers are linked to their classes)`);
  }

  const people: Array<Record<string, unknown>> = [];
  const teachers: Array<{ code: string; name: string }> = [];
  for (const user of users.values()) {
    const userRoles = roles.get(user.sourcedId) ?? new Set();
    if (userRoles.has('student')) people.push({ externalId: user.sourcedId, name: userName(user), email: user.email, phone: user.phone ?? user.sms });
    else if (userRoles.has('teacher')) teachers.push({ code: user.sourcedId, name: userName(user) });
    else ignored.add('users.csv', `with role ${[...userRoles].join('/') || '(none)'} (only students and teachers are imported)`);
  }

  const classList = classRows.map((cls) => ({
    code: cls.sourcedId,
    name: cls.title,
    courseCode: cls.courseSourcedId,
    orgUnitCode: cls.schoolSourcedId,
    // A class has one class group: its first term.
    classGroupCode: list(cls.termSourcedIds)[0],
    ...(teachersOf.has(cls.sourcedId) ? { teacherCodes: [...teachersOf.get(cls.sourcedId)!] } : {}),
  }));

  return {
    payload: { orgUnits, courses, teachers, classGroups, classes: classList, people, enrollments },
    kind: modeOf('enrollments.csv') === 'delta' ? 'delta' : 'bulk',
    unrecognisedFiles: folder.unrecognisedFiles,
    unrecognisedColumns: folder.unrecognisedColumns,
    ignored: ignored.list(),
  };
}
