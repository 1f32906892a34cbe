/**
 * A OneRoster 1.2 bulk CSV package written by hand from 1EdTech's CSV binding, each file as its
 * lines: a district and a school, a year and a term, one course and class, four students (one
 * enrollment ended before the test clock's 2026-03-02), a teacher and a parent, a column no
 * version defines (users.csv: shoeSize), a file the import does not read (demographics.csv) and a
 * stray README.txt. The rosters README's mapping says which row becomes what.
 */
export const MANIFEST = (enrollments: 'bulk' | 'delta', version = '1.2') => [
  'propertyName,value',
  'manifest.version,1.0',
  `oneroster.version,${version}`,
  'file.academicSessions,bulk',
  'file.categories,absent',
  'file.classes,bulk',
  'file.courses,bulk',
  'file.demographics,absent',
  `file.enrollments,${enrollments}`,
  'file.orgs,bulk',
  'file.roles,bulk',
  'file.users,bulk',
  'source.systemName,Hand-written SIS',
];

export const ONEROSTER = {
  'manifest.csv': MANIFEST('bulk'),
  'orgs.csv': [
    'sourcedId,status,dateLastModified,name,type,identifier,parentSourcedId',
    'dist-1,,,North District,district,ND,',
    'sch-1,,,North High,school,NH,dist-1',
  ],
  'academicSessions.csv': [
    'sourcedId,status,dateLastModified,title,type,startDate,endDate,parentSourcedId,schoolYear',
    'year-2026,,,School year 2026,schoolYear,2026-02-01,2026-12-15,,2026',
    'term-2026-1,,,First term 2026,term,2026-02-01,2026-06-30,year-2026,2026',
  ],
  'courses.csv': [
    'sourcedId,status,dateLastModified,schoolYearSourcedId,title,courseCode,grades,orgSourcedId,subjects,subjectCodes',
    'crs-alg,,,year-2026,Algebra,ALG,09,sch-1,Mathematics,',
  ],
  'classes.csv': [
    'sourcedId,status,dateLastModified,title,grades,courseSourcedId,classCode,classType,location,schoolSourcedId,termSourcedIds,subjects,subjectCodes,periods',
    'cls-alg-1a,,,Algebra 1A,09,crs-alg,ALG-1A,scheduled,Room 4,sch-1,"term-2026-1,year-2026",Mathematics,,1',
  ],
  // 1.2 columns (the role lives in roles.csv), plus one column no version defines.
  'users.csv': [
    'sourcedId,status,dateLastModified,enabledUser,username,userIds,givenName,familyName,middleName,identifier,email,sms,phone,agentSourcedIds,grades,password,userMasterIdentifier,resourceSourcedIds,preferredGivenName,preferredMiddleName,preferredFamilyName,primaryOrgSourcedId,pronouns,shoeSize',
    'stu-1,,,true,ana,,Ana,Lima,,,ana@north.test,,,,09,,,,,,,sch-1,,38',
    'stu-2,,,true,bruno,,Bruno,Costa,,,,,+55 11 98765-4321,,09,,,,Beto,,,sch-1,,41',
    'stu-3,,,true,caio,,Caio,Reis,,,,,,,09,,,,,,,sch-1,,40',
    'stu-4,,,true,dora,,Dora,Sá,,,,,,,09,,,,,,,sch-1,,36',
    'tch-1,,,true,mrs.m,,Marta,Moura,,,marta@north.test,,,,,,,,,,,sch-1,,',
    'par-1,,,true,pai,,Paulo,Lima,,,,,,,,,,,,,,sch-1,,',
  ],
  'roles.csv': [
    'sourcedId,status,dateLastModified,userSourcedId,roleType,role,beginDate,endDate,orgSourcedId,userProfileSourcedId',
    'r1,,,stu-1,primary,student,,,sch-1,',
    'r2,,,stu-2,primary,student,,,sch-1,',
    'r3,,,stu-3,primary,student,,,sch-1,',
    'r4,,,stu-4,primary,student,,,sch-1,',
    'r5,,,tch-1,primary,teacher,,,sch-1,',
    'r6,,,par-1,primary,parent,,,sch-1,',
  ],
  'enrollments.csv': [
    'sourcedId,status,dateLastModified,classSourcedId,schoolSourcedId,userSourcedId,role,primary,beginDate,endDate',
    'e1,,,cls-alg-1a,sch-1,stu-1,student,false,2026-02-01,',
    // Ended before today (the test clock's 2026-03-02): completed.
    'e2,,,cls-alg-1a,sch-1,stu-2,student,false,2026-02-01,2026-02-27',
    'e3,,,cls-alg-1a,sch-1,stu-3,student,false,2026-02-01,',
    'e4,,,cls-alg-1a,sch-1,stu-4,student,false,2026-02-01,',
    'e5,,,cls-alg-1a,sch-1,tch-1,teacher,true,2026-02-01,',
    'e6,,,cls-alg-1a,sch-1,par-1,parent,false,,',
  ],
  'demographics.csv': ['sourcedId,status,dateLastModified,birthDate,sex', 'stu-1,,,2010-05-01,female'],
  'README.txt': ['exported by hand'],
};
