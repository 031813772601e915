import { createSlice, type PayloadAction, type WithSlice } from '@reduxjs/toolkit';
import { imageFileError } from '../../../lib/uploads';
import { CENTRE_CROP, type PhotoCrop } from '../../../lib/photoCrop';
import { textOf } from '../../../lib/i18n/appTexts';
import type { ImageInfo, PostImage } from '../../../lib/types';
import { apiUrls } from '../../../lib/apiUrls';
import { apiClient, errorMessage } from '../../../services/apiClient';
import { rootReducer, type AppDispatch, type RootState } from '../../../store/index';
import { thunkToasts, type ToastListener } from '../../../store/toasts';
import { createAppAsyncThunk } from '../../../store/withTypes';
import { uploadsApi } from './uploadsApi';

/**
 * The composer's photos (issue 71, albums): an ordered list, each photo with its own upload,
 * progress, error (with a Retry), alt text and crop. Used for a new post and for the edit dialog,
 * where the post's photos come in as already uploaded.
 */

/** Uploads sent at once: under the server's 4 queued per person (`TooManyUploadsQueued`), leaving one for an avatar. */
export const PARALLEL_UPLOADS = 3;

export type PhotoStatus = 'queued' | 'uploading' | 'done' | 'error';

export interface PhotoItem {
  /** This list's own id for the photo (file names repeat). */
  key: string;
  /** The file's name, or the image's address for a photo the post had. */
  name: string;
  /** The picked file shown while it uploads (`blob:`), or null. */
  preview: string | null;
  status: PhotoStatus;
  /** Whole percent of the running upload. */
  progress: number;
  error: string | null;
  /** The uploaded image's address once done. */
  url: string | null;
  info: Pick<ImageInfo, 'width' | 'height' | 'thumbhash'> | null;
  alt: string;
  crop: PhotoCrop;
}

export interface UploadListState {
  items: PhotoItem[];
  /** The server's `maxPostImages`, read when the person first adds photos (never on page load). */
  limit: number | null;
}

const initialState: UploadListState = { items: [], limit: null };

// The files and their cancellers stay out of the store (not serialisable), by the photo's key.
const files = new Map<string, File>();
const cancels = new Map<string, AbortController>();
let nextKey = 0;

const forget = (key: string, preview: string | null) => {
  cancels.get(key)?.abort();
  cancels.delete(key);
  files.delete(key);
  if (preview?.startsWith('blob:')) URL.revokeObjectURL(preview);
};

const previewOf = (file: File): string | null =>
  typeof URL.createObjectURL === 'function' ? URL.createObjectURL(file) : null;

/** The number of photos a post may hold, asked of the server once (the composer is the only reader). */
const readLimit = createAppAsyncThunk('uploadList/readLimit', async (_: void, { getState }) => {
  const known = list(getState()).limit;
  if (known !== null) return known;
  try {
    const { data } = await apiClient.get<{ maxPostImages?: unknown }>(apiUrls.instance());
    return typeof data.maxPostImages === 'number' ? data.maxPostImages : null;
  } catch {
    // Not known: the server still refuses a post with too many (`TooManyImages`).
    return null;
  }
});

/**
 * Adds picked or dropped files: each is checked (JPEG/PNG, size) and queued; past the limit the
 * rest are left out. Rejects with the reason when a file was refused or left out (a toast).
 */
export const photosAdded = createAppAsyncThunk(
  'uploadList/photosAdded',
  async (picked: File[], { getState, dispatch, rejectWithValue }) => {
    if (!getState().auth.user) return rejectWithValue(textOf('uploads.notLoggedIn'));
    const limit = (await dispatch(readLimit())).payload as number | null;
    const problems: string[] = [];
    const room = limit === null ? Infinity : limit - list(getState()).items.length;
    const accepted: File[] = [];
    for (const file of picked) {
      const invalid = imageFileError(file);
      if (invalid)
        problems.push(
          picked.length > 1 ? textOf('uploads.fileProblem', { name: file.name, problem: invalid }) : invalid,
        );
      else accepted.push(file);
    }
    const kept = accepted.slice(0, Math.max(0, room));
    if (kept.length < accepted.length && limit !== null) {
      const left = accepted.length - kept.length;
      problems.push(textOf('uploads.overLimit', { limit, count: left }));
    }
    const items = kept.map((file) => {
      const key = `photo-${++nextKey}`;
      files.set(key, file);
      return { key, name: file.name, preview: previewOf(file) };
    });
    dispatch(uploadList.actions.photosQueued(items));
    dispatch(pumpUploads());
    if (problems.length) return rejectWithValue(problems.join(textOf('uploads.problemSeparator')));
    return items.map((item) => item.key);
  },
);

/** Sends one queued photo; when it settles, the next waiting one starts. */
const uploadPhoto = createAppAsyncThunk(
  'uploadList/uploadPhoto',
  async (key: string, { dispatch, rejectWithValue }) => {
    const file = files.get(key);
    const cancel = new AbortController();
    cancels.set(key, cancel);
    try {
      if (!file) throw new Error(textOf('uploads.photoGone'));
      return await uploadsApi.upload(
        file,
        'post',
        (percent) => dispatch(uploadList.actions.photoProgressed({ key, percent })),
        cancel.signal,
      );
    } catch (error) {
      return rejectWithValue(cancel.signal.aborted ? '' : errorMessage(error));
    } finally {
      if (cancels.get(key) === cancel) cancels.delete(key);
    }
  },
);

/** Starts queued uploads while fewer than PARALLEL_UPLOADS run. */
export const pumpUploads = () => (dispatch: AppDispatch, getState: () => RootState) => {
  const { items } = list(getState());
  let running = items.filter((item) => item.status === 'uploading').length;
  for (const item of items) {
    if (running >= PARALLEL_UPLOADS) break;
    if (item.status !== 'queued') continue;
    running++;
    // Once this one has settled in the store, the next waiting one goes.
    void dispatch(uploadPhoto(item.key)).then(() => dispatch(pumpUploads()));
  }
};

/** Tries a failed photo again; the others are untouched. */
export const photoRetried = (key: string) => (dispatch: AppDispatch) => {
  dispatch(uploadList.actions.photoRequeued(key));
  dispatch(pumpUploads());
};

/** Takes a photo out; one still uploading is cancelled, and its local copy let go. */
export const photoRemoved = (key: string) => (dispatch: AppDispatch, getState: () => RootState) => {
  const item = list(getState()).items.find((photo) => photo.key === key);
  forget(key, item?.preview ?? null);
  dispatch(uploadList.actions.photoDropped(key));
  dispatch(pumpUploads());
};

/** Empties the list (the editor closed, the post sent), cancelling what still uploads. */
export const photosCleared = () => (dispatch: AppDispatch, getState: () => RootState) => {
  for (const item of list(getState()).items) forget(item.key, item.preview);
  dispatch(uploadList.actions.listReset());
};

/**
 * Refused files and the photos past the limit toast why; a failed upload says so on its photo.
 * The composer starts these (`useToasts`): the slice comes with its chunk, not the first load.
 */
export const uploadListToasts: ToastListener[] = thunkToasts(photosAdded);

const uploadList = createSlice({
  name: 'uploadList',
  initialState,
  reducers: {
    photosQueued(state, action: PayloadAction<{ key: string; name: string; preview: string | null }[]>) {
      for (const { key, name, preview } of action.payload)
        state.items.push({
          key,
          name,
          preview,
          status: 'queued',
          progress: 0,
          error: null,
          url: null,
          info: null,
          alt: '',
          crop: CENTRE_CROP,
        });
    },
    /** The edit dialog starts from the post's photos, all uploaded. */
    photosLoaded(state, action: PayloadAction<PostImage[]>) {
      state.items = action.payload.map((photo) => ({
        key: `photo-${++nextKey}`,
        name: photo.image,
        preview: null,
        status: 'done',
        progress: 0,
        error: null,
        url: photo.image,
        info: photo.imageInfo
          ? { width: photo.imageInfo.width, height: photo.imageInfo.height, thumbhash: photo.imageInfo.thumbhash }
          : null,
        alt: photo.alt,
        crop: photo.crop,
      }));
    },
    /** A photo uploaded elsewhere (an image shared to the app, uploadFilesSlice's `post` slot) joins the list. */
    photoAdopted(state, action: PayloadAction<{ url: string; info: PhotoItem['info'] }>) {
      if (state.items.some((photo) => photo.url === action.payload.url)) return;
      state.items.push({
        key: `photo-${++nextKey}`,
        name: action.payload.url,
        preview: null,
        status: 'done',
        progress: 0,
        error: null,
        url: action.payload.url,
        info: action.payload.info,
        alt: '',
        crop: CENTRE_CROP,
      });
    },
    photoProgressed(state, action: PayloadAction<{ key: string; percent: number }>) {
      const item = state.items.find((photo) => photo.key === action.payload.key);
      if (item) item.progress = Math.min(100, Math.round(action.payload.percent));
    },
    photoRequeued(state, action: PayloadAction<string>) {
      const item = state.items.find((photo) => photo.key === action.payload);
      if (item?.status !== 'error') return;
      item.status = 'queued';
      item.error = null;
      item.progress = 0;
    },
    photoDropped(state, action: PayloadAction<string>) {
      state.items = state.items.filter((photo) => photo.key !== action.payload);
    },
    /** Puts a photo at `to` (0-based), the others keeping their order. */
    photoMoved(state, action: PayloadAction<{ key: string; to: number }>) {
      const from = state.items.findIndex((photo) => photo.key === action.payload.key);
      if (from < 0) return;
      const to = Math.max(0, Math.min(state.items.length - 1, action.payload.to));
      const [item] = state.items.splice(from, 1);
      state.items.splice(to, 0, item);
    },
    photoAltChanged(state, action: PayloadAction<{ key: string; alt: string }>) {
      const item = state.items.find((photo) => photo.key === action.payload.key);
      if (item) item.alt = action.payload.alt;
    },
    photoCropChanged(state, action: PayloadAction<{ key: string; crop: PhotoCrop }>) {
      const item = state.items.find((photo) => photo.key === action.payload.key);
      if (item) item.crop = action.payload.crop;
    },
    listReset(state) {
      state.items = [];
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(readLimit.fulfilled, (state, action) => {
        state.limit = action.payload;
      })
      .addCase(uploadPhoto.pending, (state, action) => {
        const item = state.items.find((photo) => photo.key === action.meta.arg);
        if (!item) return;
        item.status = 'uploading';
        item.progress = 0;
        item.error = null;
      })
      .addCase(uploadPhoto.fulfilled, (state, action) => {
        const item = state.items.find((photo) => photo.key === action.meta.arg);
        if (!item) return; // removed meanwhile
        const { secure_url, width, height, thumbhash } = action.payload;
        item.status = 'done';
        item.progress = 100;
        item.url = secure_url;
        item.info = { width, height, thumbhash };
      })
      .addCase(uploadPhoto.rejected, (state, action) => {
        const item = state.items.find((photo) => photo.key === action.meta.arg);
        if (!item) return;
        item.status = 'error';
        item.progress = 0;
        item.error = action.payload || action.error.message || textOf('uploads.uploadFailed');
      });
  },
});

declare module '../../../store/index' {
  // Adds `uploadList` to RootState once the composer's chunk has loaded.
  export interface LazyLoadedSlices extends WithSlice<typeof uploadList> {}
}

const injected = uploadList.injectInto(rootReducer);
function list(state: RootState): UploadListState {
  return injected.selectSlice(state);
}

export const { photoAdopted, photosLoaded, photoMoved, photoAltChanged, photoCropChanged } = uploadList.actions;

export const selectPhotos = (state: RootState) => list(state).items;
export const selectPhotoLimit = (state: RootState) => list(state).limit;
/** Whether every photo is uploaded (none waiting, running or failed). */
export const selectPhotosReady = (state: RootState) =>
  list(state).items.length > 0 && list(state).items.every((photo) => photo.status === 'done');
export const selectPhotosBusy = (state: RootState) =>
  list(state).items.some((photo) => photo.status === 'queued' || photo.status === 'uploading');
