/**
 * Messages people read that are said in more than one place (api, worker, web), character for
 * character; the ones a rule owns stay beside it (AUTH_MESSAGES, EXPORT_ERRORS, WORKBOOK_ERRORS,
 * ISSUE_TEXTS, quotaExceededMessage).
 */
export const USER_MESSAGES = {
  unsupportedFile: 'This file is not a JPG, PNG, WebP, HEIC or PDF file.',
  fileTooLarge: 'The file is larger than the 10MB limit.',
  fileEmpty: 'The file is empty.',
  documentAiNotConfigured: 'Document AI is not configured on this server.',
  vlmNotConfigured: 'The vision model is not configured on this server.',
  vlmUnavailable: 'The vision model did not answer. Please try again later.',
  vlmRefused: 'The vision model refused the request; its settings on this server need attention.',
  vlmUnreadable: 'The vision model gave no usable reading of this receipt. Please try another engine.',
  invalidCredentials: 'Invalid email or password',
  invalidResetLink: 'This password reset link is invalid or has expired.',
  passwordResetSuccessful: 'Password reset successful!',
  noClientSecret: 'No client secret received',
  somethingWentWrong: 'Something went wrong. Please try again.',
} as const;

/**
 * What a user reads when something failed on our side: never the cause (it may carry SQL or
 * paths), a reference that finds the detail in the log instead.
 */
export const internalErrorMessage = (reference: string) => `Something went wrong on our side. Please try again. (Reference: ${reference})`;
export const processingFailedMessage = (reference: string) =>
  `Processing failed on our side. Please try again; if it keeps failing, quote reference ${reference}.`;
