import { stat } from 'node:fs/promises';
import path from 'node:path';
import express, { Router, type Response } from 'express';

/** The compressed copies a build holds (web/precompress.plugin.ts), the smaller first. */
const ENCODINGS = { br: '.br', gzip: '.gz' } as const;
type Encoding = keyof typeof ENCODINGS;
/** Hashed file names change with their content: cached for a year and never asked again. */
const HASHED = /^\/assets\//;
const YEAR = 'public, max-age=31536000, immutable';
const HOUR = 'public, max-age=3600';

/**
 * The web app's built files: the precompressed copy the browser accepts (Brotli, else gzip),
 * else the file itself; hashed assets cached for a year, the rest for an hour. A path outside
 * the build, or a file it does not hold, goes on to the next handler (the app's own routes).
 */
export function staticAssets(dir: string): Router {
  const root = path.resolve(dir);
  // The build does not change under a running server: a file's copies, once found, are kept.
  // Paths without copies (app routes, any path a client makes up) are looked up each time, so
  // no request can grow this map beyond the build's own files.
  const copies = new Map<string, Encoding[]>();
  const copiesOf = async (file: string): Promise<Encoding[]> => {
    const known = copies.get(file);
    if (known) return known;
    const names = Object.keys(ENCODINGS) as Encoding[];
    const has = await Promise.all(names.map((e) => stat(file + ENCODINGS[e]).then((s) => s.isFile(), () => false)));
    const found = names.filter((_, i) => has[i]);
    if (found.length > 0) copies.set(file, found);
    return found;
  };
  const caching = (res: Response, urlPath: string) => res.setHeader('Cache-Control', HASHED.test(urlPath) ? YEAR : HOUR);

  const router = Router();
  router.use(async (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    let file: string;
    try {
      file = path.join(root, decodeURIComponent(req.path));
    } catch {
      return next();
    }
    if (!file.startsWith(root + path.sep)) return next();
    const available = await copiesOf(file);
    if (available.length === 0) return next();
    res.setHeader('Vary', 'Accept-Encoding');
    // Ours first: browsers list gzip before br at the same weight, and br is the smaller.
    const encoding = available.find((e) => req.acceptsEncodings(e) === e);
    if (!encoding) return next();
    // The type of the file itself, not of its compressed copy.
    res.type(path.extname(file));
    res.setHeader('Content-Encoding', encoding);
    caching(res, req.path);
    res.sendFile(file + ENCODINGS[encoding], { cacheControl: false }, (err) => err && next(err));
  });
  router.use(express.static(root, { index: false, cacheControl: false, setHeaders: (res, file) => caching(res, '/' + path.relative(root, file).split(path.sep).join('/')) }));
  return router;
}
