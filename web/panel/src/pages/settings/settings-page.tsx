/** The Settings area: company, channels, holidays and the suppression list, one tab each. */
import { TabbedArea } from '../../ui/tabbed-area';
import { ChannelSettings } from './channel-settings';
import { GeneralSettings } from './general-settings';
import { HolidaysPanel } from './holidays-panel';
import { NS } from './strings';
import { SuppressionsPanel } from './suppressions-panel';

const TABS = [
  { value: 'general', Panel: GeneralSettings },
  { value: 'channels', Panel: ChannelSettings },
  { value: 'holidays', Panel: HolidaysPanel },
  { value: 'suppressions', Panel: SuppressionsPanel },
] as const;

export function SettingsPage() {
  return <TabbedArea ns={NS} tabs={TABS} />;
}
