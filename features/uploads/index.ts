/** Image uploads: the dropzone with its progress, and the uploaded image of each kind. */
export { ImageDropzone } from './components/ImageDropzone';
export { selectUpload, uploadImage, uploadReset } from './state/uploadFilesSlice';
// The composer's photos (issue 71); the package is side-effect free, so only the composer's chunk holds them.
export { PhotoList, LAST_PHOTO_TEXT } from './components/PhotoList';
export {
  photoAdopted,
  photoCropChanged,
  photosCleared,
  photosLoaded,
  selectPhotos,
  selectPhotosBusy,
  selectPhotosReady,
  type PhotoItem,
} from './state/uploadListSlice';
