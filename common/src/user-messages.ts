import { ACCEPTED_MIME_TYPES, fileTypeList } from './file-type.js';
import { FREE_DAILY_LIMIT } from './quota.rules.js';

/**
 * Messages people read that are said in more than one place (api, worker, web), character for
 * character; the ones a rule owns stay beside it (AUTH_MESSAGES, EXPORT_ERRORS, WORKBOOK_ERRORS,
 * ISSUE_TEXTS, quotaExceededMessage).
 */
export const USER_MESSAGES = {
  unsupportedFile: `This file is not a ${fileTypeList(ACCEPTED_MIME_TYPES)} file.`,
  fileTooLarge: 'The file is larger than the 10MB limit.',
  fileEmpty: 'The file is empty.',
  /** POST /api/ocr with ifDuplicate=ask, when the owner uploaded the very same file before: nothing was read or charged. */
  duplicateFile: (filename: string, day: string) => `You uploaded this file before, as ${filename} on ${day}. It was not read again and used none of your quota.`,
  /** An accepted upload whose file could not be written to storage. */
  originalNotStored: 'The file could not be stored. Please upload it again.',
  documentAiNotConfigured: 'Document AI is not configured on this server.',
  vlmNotConfigured: 'The vision model is not configured on this server.',
  vlmUnavailable: 'The vision model did not answer. Please try again later.',
  vlmRefused: 'The vision model refused the request; its settings on this server need attention.',
  vlmUnreadable: 'The vision model gave no usable reading of this receipt. Please try another engine.',
  invalidCredentials: 'Invalid email or password',
  /** Sign-in's answer (spec §8), to an account that signed in before. */
  welcomeBack: 'Welcome back!',
  /** Sign-in's answer to an account's very first sign-in: nobody is welcomed back the first time. */
  welcome: 'Welcome!',
  invalidResetLink: 'This password reset link is invalid or has expired.',
  passwordResetSuccessful: 'Password reset successful!',
  noClientSecret: 'No client secret received',
  somethingWentWrong: 'Something went wrong. Please try again.',
  /** Register's answer whether or not the address already had an account (the mail tells which). */
  accountCreated: 'Account created successfully!',
  emailConfirmed: 'Your e-mail address is confirmed.',
  emailAlreadyConfirmed: 'Your e-mail address is already confirmed.',
  invalidConfirmationLink: 'This confirmation link is invalid, has expired, or belongs to another account.',
  confirmBeforeSubscribing: 'Confirm your e-mail address before subscribing: follow the link we e-mailed you, or send a new one from your dashboard.',
  /** What an account may do until its address is confirmed (the confirmation mail and the web's banner). */
  unconfirmedAllowance: `Until your e-mail address is confirmed, you can process ${FREE_DAILY_LIMIT} receipts a day, shared with everyone on your network who has no confirmed account, and cannot subscribe to a plan.`,
} as const;

export const confirmationSentMessage = (email: string) => `A new confirmation link is on its way to ${email}.`;

/** A refused attempt (429, auth routes): when the next may be made, in seconds under a minute. */
export function tooManyAttemptsMessage(msBeforeNext: number): string {
  const seconds = Math.max(1, Math.ceil(msBeforeNext / 1000));
  const [count, unit] = seconds < 60 ? [seconds, 'second'] : [Math.ceil(seconds / 60), 'minute'];
  return `Too many attempts. Please try again in ${count} ${unit}${count === 1 ? '' : 's'}.`;
}

/**
 * What a user reads when something failed on our side: never the cause (it may carry SQL or
 * paths), a reference that finds the detail in the log instead.
 */
export const internalErrorMessage = (reference: string) => `Something went wrong on our side. Please try again. (Reference: ${reference})`;
export const processingFailedMessage = (reference: string) =>
  `Processing failed on our side. Please try again; if it keeps failing, quote reference ${reference}.`;
