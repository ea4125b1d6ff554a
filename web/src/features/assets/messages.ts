/** Every text of the asset manager that the spec fixes (spec 2 §2, §5, §8). */
export const ASSET_MESSAGES = {
  rootName: 'Portal root',
  folderRequired: 'A folder name is required',
  newFolderRequired: 'A new folder name is required',
  folderNoSpaces: 'A folder name cannot contain spaces',
  folderHasChildren: 'Folder still has children.',
  deleteFolderFailed: (name: string) => `Error deleting asset folder '${name}'`,
  deleteAssetsFailed: 'Error deleting asset(s)',
  downloadFailed: 'Could not download asset',
  loadFailed: 'Could not load asset',
  childrenFailed: 'Error retrieving children',
  createFolderFailed: 'Error creating asset folder',
  renameFolderFailed: 'Error renaming asset folder',
  // Not fixed by the spec: renaming a file (spec 2 §1 lists rename for files and folders).
  renameFileFailed: 'Error renaming asset',
  fileNameRequired: 'A new file name is required',
  fileNameRule: 'A file name may hold letters, digits, spaces and [ ] - _ ) & $ @ ( ^ { } ~ . only',
  extensionNotAllowed: 'This file type is not allowed',
  sizeLimitsFailed: 'Could not retrieve size limits for assets',
  emptyFolder: 'This folder is empty.',
  allowedExtensions: (extensions: readonly string[]) =>
    `Drop files here or use Upload. Allowed file types: ${extensions.join(', ')}`,
  noFilesSelected: 'No files selected',
  uploading: (n: number) => `Uploading ${String(n)} files, please wait...`,
  specialCharacters: 'Warning! Some of the selected files can not be uploaded because it contains special characters.',
  alreadyExist: 'Warning! Some of the selected files already exist in the current directory and may be overridden.',
  overTypeLimit: (file: string, size: string) =>
    `Cannot add '${file}' as it exceeds the allowed file size of ${size} for it's type`,
  overTotalLimit: (file: string) => `Cannot add '${file}' as it exceeds the allowed max upload amount size of 399mb`,
  // Not fixed by the spec: a file whose extension is not allowed.
  typeNotAllowed: (file: string) => `Cannot add '${file}' as its file type is not allowed`,
  uploadSuccessful: 'Upload successful',
  /** The upload dialog names the folder the files go to (issue 22). */
  uploadDestination: 'Files go to the folder',
  uploadCancelled: 'Upload cancelled',
  uploadFailed: (file: string) => `Error while uploading file ${file}`,
  fileSizeExceeded: 'file size exceeded',
  referencedBy: 'The asset is used by other files.',
} as const;

/** Toast durations of the upload (spec 2 §8). */
export const UPLOAD_TOAST_MS = {
  successOne: 6000,
  successMany: 10000,
  errorInDialog: 8000,
  error: 10000,
} as const;

/** How long the toast listing an asset's referencing files stays (spec 2 §8). */
export const REFERENCE_TOAST_MS = 15000;
/** Uploads refresh the folder at most this often (spec 2 §4). */
export const UPLOAD_REFRESH_DEBOUNCE_MS = 5000;
/** At most this many uploads run at once (spec 2 §9). */
export const MAX_CONCURRENT_UPLOADS = 3;
/** The total a selection may reach: 399mb (spec 2 §5). */
export const TOTAL_UPLOAD_LIMIT_BYTES = 419430400;
