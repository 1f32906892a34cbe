/** The Rosters area: enrollments (with the API's filters and status by hand), classes, class groups, and the import. */
import { TabbedArea } from '../../ui/tabbed-area';
import { ClassesPanel, GroupsPanel } from './class-lists';
import { EnrollmentsPanel } from './enrollments-panel';
import { ImportPanel } from './import-panel';
import { NS } from './strings';

const TABS = [
  { value: 'enrollments', Panel: EnrollmentsPanel },
  { value: 'classes', Panel: ClassesPanel },
  { value: 'groups', Panel: GroupsPanel },
  { value: 'import', Panel: ImportPanel },
] as const;

export function RostersPage() {
  return <TabbedArea ns={NS} tabs={TABS} />;
}
