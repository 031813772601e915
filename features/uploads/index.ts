/** Image uploads: the dropzone with its progress, and the uploaded image of each kind. */
export { ImageDropzone } from './components/ImageDropzone';
export { selectUpload, uploadImage, uploadReset } from './state/uploadFilesSlice';
