import { createReducer, isFulfilled, isPending, isRejected } from '@reduxjs/toolkit';
import { done, failed, idle, started, type ActionStatus } from '../../../store/status';
import { editorOpened } from './editor';
import { messageOf } from './thunks';

// RTK's shape of "any async thunk", which it does not export.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- matchers of any action type
type AnyAsyncThunk = Record<'pending' | 'fulfilled' | 'rejected', { match: (action: any) => action is any }>;

/**
 * The idle → loading → done | failed slot of one of the spec's tracked actions (section 4), for
 * the thunks given. `resetOnEditor`: opening the editor clears a previous attempt.
 */
export function actionStatus<Thunks extends [AnyAsyncThunk, ...AnyAsyncThunk[]]>(
  thunks: Thunks,
  { resetOnEditor = false } = {},
) {
  return createReducer<ActionStatus>(idle(), (builder) => {
    if (resetOnEditor) builder.addCase(editorOpened, () => idle());
    builder
      .addMatcher(isPending(...thunks), (slot) => started(slot))
      .addMatcher(isFulfilled(...thunks), (slot) => done(slot))
      .addMatcher(isRejected(...thunks), (slot, action) => failed(slot, messageOf(action)));
  });
}
