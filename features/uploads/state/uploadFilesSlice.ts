import { createSlice, type PayloadAction, type WithSlice } from '@reduxjs/toolkit';
import type { UploadPreset } from '../../../lib/limits';
import { imageFileError } from '../../../lib/uploads';
import { textOf } from '../../../lib/i18n/appTexts';
import type { UploadResult } from '../../../lib/types';
import { errorMessage } from '../../../services/apiClient';
import { rootReducer, type RootState } from '../../../store/index';
import { addLazyListeners } from '../../../store/actionListeners';
import { thunkToasts, type ToastListener } from '../../../store/toasts';
import { createAppAsyncThunk } from '../../../store/withTypes';
import { uploadsApi } from './uploadsApi';

export interface UploadSlot {
  url: string | null;
  /** Rounded whole percent of the running upload; back to 0 once it reaches 100. */
  progress: number;
  loading: boolean;
  error: string | null;
  info: Pick<UploadResult, 'width' | 'height' | 'thumbhash'> | null;
}

export type UploadFilesState = Record<UploadPreset, UploadSlot>;

const emptySlot = (): UploadSlot => ({ url: null, progress: 0, loading: false, error: null, info: null });

const initialState: UploadFilesState = { avatar: emptySlot(), post: emptySlot(), banner: emptySlot() };

export const uploadImage = createAppAsyncThunk(
  'uploadFiles/uploadImage',
  async ({ file, kind }: { file: File; kind: UploadPreset }, { getState, dispatch, rejectWithValue }) => {
    try {
      if (!getState().auth.user) throw new Error(textOf('uploads.notLoggedIn'));
      const invalid = imageFileError(file);
      if (invalid) throw new Error(invalid);
      return await uploadsApi.upload(file, kind, (percent) => dispatch(uploadProgressed({ kind, percent })));
    } catch (error) {
      return rejectWithValue(errorMessage(error));
    }
  },
);

/** A refused upload (type, size, the server's answer) toasts its message (started in every store once this module loads). */
export const uploadToasts: ToastListener[] = thunkToasts(uploadImage);

const uploadFilesSlice = createSlice({
  name: 'uploadFiles',
  initialState,
  reducers: {
    uploadProgressed(state, action: PayloadAction<{ kind: UploadPreset; percent: number }>) {
      const percent = Math.round(action.payload.percent);
      state[action.payload.kind].progress = percent >= 100 ? 0 : percent;
    },
    uploadReset(state, action: PayloadAction<UploadPreset>) {
      state[action.payload] = emptySlot();
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(uploadImage.pending, (state, action) => {
        const slot = state[action.meta.arg.kind];
        slot.loading = true;
        slot.error = null;
        slot.progress = 0;
      })
      .addCase(uploadImage.fulfilled, (state, action) => {
        const { secure_url, width, height, thumbhash } = action.payload;
        state[action.meta.arg.kind] = { ...emptySlot(), url: secure_url, info: { width, height, thumbhash } };
      })
      .addCase(uploadImage.rejected, (state, action) => {
        const slot = state[action.meta.arg.kind];
        slot.loading = false;
        slot.progress = 0;
        slot.error = action.payload ?? action.error.message ?? null;
      });
  },
});

declare module '../../../store/index' {
  // Adds `uploadFiles` to RootState once a screen that uploads has loaded (settings, the composer):
  // the slice travels with them, not with every page's first load.
  export interface LazyLoadedSlices extends WithSlice<typeof uploadFilesSlice> {}
}

const injected = uploadFilesSlice.injectInto(rootReducer);
addLazyListeners(uploadToasts);

export const { uploadProgressed, uploadReset } = uploadFilesSlice.actions;

/** Every slot (its initial state until the slice has seen an action). */
export const selectUploads = (state: RootState) => injected.selectSlice(state);
export const selectUpload = (kind: UploadPreset) => (state: RootState) => selectUploads(state)[kind];
