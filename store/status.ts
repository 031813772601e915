/** The lifecycle of one post, comment, like or follow action (spec section 4). */
export type ActionPhase = 'idle' | 'loading' | 'done' | 'failed';

export interface ActionStatus {
  status: ActionPhase;
  error: string | null;
}

/** The loading/error pair of login, signup and the account updates. */
export interface LoadingState {
  loading: boolean;
  error: string | null;
}

export const idle = (): ActionStatus => ({ status: 'idle', error: null });
export const notLoading = (): LoadingState => ({ loading: false, error: null });

export const started = (slot: ActionStatus) => {
  slot.status = 'loading';
  slot.error = null;
};
export const done = (slot: ActionStatus) => {
  slot.status = 'done';
};
export const failed = (slot: ActionStatus, message: string | null | undefined) => {
  slot.status = 'failed';
  slot.error = message ?? null;
};
