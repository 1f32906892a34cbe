/** The owner switch and the permission boxes (an owner holds all, so the boxes are then shown ticked and locked). */
import { Checkbox, Stack, Switch } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Permission } from '../../api/client';
import { PERMISSION_ORDER } from './members-api';
import { MEMBERS_NS } from './strings';

export interface Grant {
  owner: boolean;
  permissions: Permission[];
}

export function PermissionFields({ value, onChange, error }: { value: Grant; onChange: (grant: Grant) => void; error?: string }) {
  const { t } = useTranslation(MEMBERS_NS);
  return (
    <Stack gap="sm">
      <Switch
        label={t('owner')}
        description={t('ownerHelp')}
        checked={value.owner}
        onChange={(event) => onChange({ ...value, owner: event.currentTarget.checked })}
      />
      <Checkbox.Group
        label={t('permissions')}
        value={value.owner ? [...PERMISSION_ORDER] : value.permissions}
        onChange={(permissions) => onChange({ ...value, permissions: permissions as Permission[] })}
        error={error}
      >
        <Stack gap="xs" mt="xs">
          {PERMISSION_ORDER.map((permission) => (
            <Checkbox key={permission} value={permission} label={t(`perm.${permission}`)} disabled={value.owner} />
          ))}
        </Stack>
      </Checkbox.Group>
    </Stack>
  );
}
