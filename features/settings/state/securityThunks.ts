/**
 * The security section's calls as thunks, so their toasts go the one way every toast goes
 * (store/toasts.ts). Their results stay in the section's own state: nothing else shows them.
 */
import { textOf } from '../../../lib/i18n/appTexts';
import { errorMessage } from '../../../services/apiClient';
import { thunkToasts, type ToastListener } from '../../../store/toasts';
import { createAppAsyncThunk } from '../../../store/withTypes';
import { type Relation, securityApi } from './securityApi';

/** A thunk around one call: the message of a failure is the server's. */
function securityThunk<Arg, Result>(type: string, call: (arg: Arg) => Promise<Result>) {
  return createAppAsyncThunk(type, async (arg: Arg, { rejectWithValue }) => {
    try {
      return await call(arg);
    } catch (error) {
      return rejectWithValue(errorMessage(error));
    }
  });
}

export const fetchSessions = securityThunk('security/fetchSessions', (_: void) => securityApi.sessions());
export const revokeSession = securityThunk('security/revokeSession', (id: string) => securityApi.revokeSession(id));
export const revokeOtherSessions = securityThunk('security/revokeOtherSessions', (_: void) =>
  securityApi.revokeOtherSessions(),
);

export const fetchApps = securityThunk('security/fetchApps', (_: void) => securityApi.apps());
export const revokeApp = securityThunk('security/revokeApp', (id: string) => securityApi.revokeApp(id));

export const fetchTwoFactor = securityThunk('security/fetchTwoFactor', (_: void) => securityApi.twoFactorStatus());
export const setupTwoFactor = securityThunk('security/setupTwoFactor', (_: void) => securityApi.setupTwoFactor());
export const enableTwoFactor = securityThunk('security/enableTwoFactor', (code: string) =>
  securityApi.enableTwoFactor(code),
);
export const disableTwoFactor = securityThunk(
  'security/disableTwoFactor',
  ({ password, code }: { password: string; code: string }) => securityApi.disableTwoFactor(password, code),
);

export const deleteAccount = securityThunk(
  'security/deleteAccount',
  ({ password, code }: { password: string; code?: string }) => securityApi.deleteAccount(password, code),
);

export const fetchRelations = securityThunk(
  'security/fetchRelations',
  ({ relation, next }: { relation: Relation; next?: string }) => securityApi.relations(relation, next),
);
export const undoRelation = securityThunk(
  'security/undoRelation',
  ({ relation, username }: { relation: Relation; username: string }) => securityApi.undoRelation(relation, username),
);

/** Every failure toasts; the changes say so. Started by the security section (`useToasts`). */
export const securityToasts: ToastListener[] = [
  ...thunkToasts(fetchSessions),
  ...thunkToasts(revokeSession, { success: () => textOf('settings.toasts.sessionSignedOut') }),
  ...thunkToasts(revokeOtherSessions, { success: () => textOf('settings.toasts.otherSessionsSignedOut') }),
  ...thunkToasts(fetchApps),
  ...thunkToasts(revokeApp, { success: () => textOf('settings.toasts.appRevoked') }),
  ...thunkToasts(fetchTwoFactor),
  ...thunkToasts(setupTwoFactor),
  ...thunkToasts(enableTwoFactor, { success: () => textOf('settings.toasts.twoFactorOn') }),
  ...thunkToasts(disableTwoFactor, { success: () => textOf('settings.toasts.twoFactorOff') }),
  ...thunkToasts(deleteAccount, { success: () => textOf('settings.toasts.accountDeleted') }),
  ...thunkToasts(fetchRelations),
  ...thunkToasts(undoRelation, {
    success: ({ relation, username }) =>
      relation === 'blocks'
        ? textOf('settings.toasts.unblocked', { username })
        : textOf('settings.toasts.unmuted', { username }),
  }),
];
