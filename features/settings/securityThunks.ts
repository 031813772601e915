/**
 * The security section's calls as thunks, so their toasts go the one way every toast goes
 * (store/thunkToasts.ts). Their results stay in the section's own state: nothing else shows them.
 */
import { SECURITY_TEXTS } from '../../lib/securityTexts';
import { errorMessage } from '../../services/apiClient';
import { isSessionLost, sessionLost } from '../../store/sessionLost';
import { declareToasts } from '../../store/thunkToasts';
import { createAppAsyncThunk } from '../../store/withTypes';
import { type Relation, securityApi } from './securityApi';

/** A thunk around one call: a lost session is reported as everywhere else, the message is the server's. */
function securityThunk<Arg, Result>(type: string, call: (arg: Arg) => Promise<Result>) {
  return createAppAsyncThunk(type, async (arg: Arg, { dispatch, rejectWithValue }) => {
    try {
      return await call(arg);
    } catch (error) {
      if (isSessionLost(error)) dispatch(sessionLost());
      return rejectWithValue(errorMessage(error));
    }
  });
}

export const fetchSessions = securityThunk('security/fetchSessions', (_: void) => securityApi.sessions());
export const revokeSession = securityThunk('security/revokeSession', (id: string) => securityApi.revokeSession(id));
declareToasts(revokeSession, { success: SECURITY_TEXTS.sessionSignedOut });
export const revokeOtherSessions = securityThunk('security/revokeOtherSessions', (_: void) =>
  securityApi.revokeOtherSessions(),
);
declareToasts(revokeOtherSessions, { success: SECURITY_TEXTS.otherSessionsSignedOut });

export const fetchTwoFactor = securityThunk('security/fetchTwoFactor', (_: void) => securityApi.twoFactorStatus());
export const setupTwoFactor = securityThunk('security/setupTwoFactor', (_: void) => securityApi.setupTwoFactor());
export const enableTwoFactor = securityThunk('security/enableTwoFactor', (code: string) =>
  securityApi.enableTwoFactor(code),
);
declareToasts(enableTwoFactor, { success: SECURITY_TEXTS.twoFactorOn });
export const disableTwoFactor = securityThunk(
  'security/disableTwoFactor',
  ({ password, code }: { password: string; code: string }) => securityApi.disableTwoFactor(password, code),
);
declareToasts(disableTwoFactor, { success: SECURITY_TEXTS.twoFactorOff });

export const deleteAccount = securityThunk(
  'security/deleteAccount',
  ({ password, code }: { password: string; code?: string }) => securityApi.deleteAccount(password, code),
);
declareToasts(deleteAccount, { success: SECURITY_TEXTS.accountDeleted });

export const fetchRelations = securityThunk(
  'security/fetchRelations',
  ({ relation, next }: { relation: Relation; next?: string }) => securityApi.relations(relation, next),
);
export const undoRelation = securityThunk(
  'security/undoRelation',
  ({ relation, username }: { relation: Relation; username: string }) => securityApi.undoRelation(relation, username),
);
declareToasts(undoRelation, {
  success: ({ relation, username }) => `You ${relation === 'blocks' ? 'unblocked' : 'unmuted'} ${username}`,
});
