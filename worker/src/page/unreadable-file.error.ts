/** Thrown for input that is the file's own fault: the upload fails with this message, no retry. */
export class UnreadableFileError extends Error {
  override name = 'UnreadableFileError';
}
