import { useCallback, useEffect, useState } from 'react';
import { Stack } from '../../../components/ui/Panel';
import { useAppDispatch } from '../../../store/hooks';
import { useToasts } from '../../../store/toasts';
import { BlockedMutedSettings } from './BlockedMutedSettings';
import { DataSettings } from './DataSettings';
import { FollowedTagsSettings } from './FollowedTagsSettings';
import type { TwoFactorStatus } from '../state/securityApi';
import { fetchTwoFactor, securityToasts } from '../state/securityThunks';
import { SessionsSettings } from './SessionsSettings';
import { AuthorizedAppsSettings } from './AuthorizedAppsSettings';
import { TwoFactorSettings } from './TwoFactorSettings';

/**
 * Devices, blocked and muted people, followed tags, two-factor sign-in, the data export and deletion: the
 * settings page loads it after its first render.
 */
export default function SecuritySettings({ username }: { username: string }) {
  const dispatch = useAppDispatch();
  // Before the first read below: the section's calls toast from here on.
  useToasts(securityToasts);
  const [twoFactor, setTwoFactor] = useState<TwoFactorStatus | null>(null);
  const load = useCallback(() => {
    void dispatch(fetchTwoFactor()).then((result) => {
      if (fetchTwoFactor.fulfilled.match(result)) setTwoFactor(result.payload);
    });
  }, [dispatch]);
  useEffect(load, [load]);

  return (
    <Stack $gap={20}>
      <SessionsSettings />
      <AuthorizedAppsSettings />
      <BlockedMutedSettings />
      <FollowedTagsSettings />
      {twoFactor && <TwoFactorSettings status={twoFactor} onChanged={load} />}
      <DataSettings username={username} twoFactorOn={twoFactor?.enabled ?? false} />
    </Stack>
  );
}
