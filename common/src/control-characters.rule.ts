import { z } from 'zod';

/**
 * The control characters (Unicode Cc: C0 with tab and line breaks, DEL, C1): PostgreSQL stores
 * no NUL in text, and none of them can be shown in a one-line field.
 */
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;
/** The same, less the tab and the line feed, which text of many lines (a text layer) keeps. */
const CONTROL_CHARACTERS_BUT_LINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

export const CONTROL_CHARACTERS_MESSAGE = 'Text may not contain control characters.';

export const hasControlCharacter = (text: string) => CONTROL_CHARACTER.test(text);

/**
 * A one-line text field of a request (body or query string): a control character anywhere in it
 * is the caller's mistake, answered 400 with the message above, not a failed insert.
 */
export const safeText = (params?: Parameters<typeof z.string>[0]) =>
  z.string(params).refine((text) => !hasControlCharacter(text), CONTROL_CHARACTERS_MESSAGE);

/** Text read from a file, made storable: control characters removed, tabs and line feeds kept. */
export const withoutControlCharacters = (text: string) => text.replace(CONTROL_CHARACTERS_BUT_LINES, '');
