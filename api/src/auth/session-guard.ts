import type { RequestHandler } from 'express';
import { HttpError } from '../http-error.js';

/** Signed-in callers only: 401 in the words the web app looks for (spec §4 subscribe flow). */
export const requireUser: RequestHandler = (req, _res, next) => {
  if (!req.session.userId) return next(new HttpError(401, 'UNAUTHENTICATED', 'Authentication required'));
  next();
};
