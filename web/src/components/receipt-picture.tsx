import type { RecognizedLine } from '@receipts/common';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { pageUrl } from '../lib/receipts-api.js';

const ZOOMS = [0.5, 0.75, 1, 1.5, 2, 3, 4] as const;
/** Height ÷ width of a page until its picture has loaded: a receipt is tall. */
const ASSUMED_RATIO = 1.6;

/**
 * The receipt's pages beside its fields: zoom, rotate, the lines it was read from highlighted
 * (`highlight`: indexes into `lines`), and every recognised line a target to pick (`onPickLine`).
 * Boxes are fractions of the page, so they stay on their words at any zoom or turn.
 */
export function ReceiptPicture({
  receiptId,
  pages,
  lines,
  highlight,
  onPickLine,
  hint,
  missing,
  pending = false,
  turn = 0,
}: {
  receiptId: string;
  pages: number;
  lines: readonly RecognizedLine[];
  highlight: readonly number[];
  onPickLine: (index: number) => void;
  /** What picking a line does now, shown above the picture. */
  hint?: string;
  /** Why there is no picture (pages = 0). */
  missing: string;
  /** The receipt's pages are still being asked for: the picture's place is kept, so nothing moves when it comes. */
  pending?: boolean;
  /** The quarter turn the receipt was read at: its picture starts turned so, upright as it was read. */
  turn?: number;
}) {
  const viewport = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  const [zoom, setZoom] = useState<number>(1);
  const [rotation, setRotation] = useState(turn);
  // The receipt's reading arrives after the first render: its turn is where the picture starts.
  useEffect(() => setRotation(turn), [turn]);
  const [ratios, setRatios] = useState<Record<number, number>>({});
  const [failed, setFailed] = useState<Record<number, boolean>>({});

  useLayoutEffect(() => {
    const el = viewport.current;
    if (!el) return;
    const measure = () => setWidth(Math.max(0, el.clientWidth - 16));
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [pages]);

  // The highlighted place is brought into view, whatever the zoom and turn.
  const highlightKey = highlight.join(',');
  useEffect(() => {
    const box = viewport.current?.querySelector('.ocr-line-active');
    box?.scrollIntoView({ block: 'center', inline: 'center', behavior: 'smooth' });
  }, [highlightKey, zoom, rotation, ratios]);

  if (pages === 0) {
    return (
      <div className={`picture picture-missing${pending ? ' picture-pending' : ''}`} data-testid="receipt-picture" aria-busy={pending}>
        <p className="muted">{missing}</p>
      </div>
    );
  }

  const step = (by: number) => {
    const at = ZOOMS.findIndex((z) => z >= zoom);
    setZoom(ZOOMS[Math.min(ZOOMS.length - 1, Math.max(0, (at === -1 ? ZOOMS.length - 1 : at) + by))]!);
  };

  return (
    <div className="picture" data-testid="receipt-picture">
      <div className="picture-tools" role="toolbar" aria-label="Picture of the receipt">
        <button type="button" className="btn btn-outline btn-sm" aria-label="Zoom out" disabled={zoom <= ZOOMS[0]} onClick={() => step(-1)}>
          −
        </button>
        <span className="picture-zoom" aria-live="polite">
          {Math.round(zoom * 100)}%
        </span>
        <button type="button" className="btn btn-outline btn-sm" aria-label="Zoom in" disabled={zoom >= ZOOMS.at(-1)!} onClick={() => step(1)}>
          +
        </button>
        <button type="button" className="btn btn-ghost btn-sm" onClick={() => setZoom(1)}>
          Fit width
        </button>
        <button type="button" className="btn btn-ghost btn-sm" aria-label="Rotate a quarter turn" onClick={() => setRotation((r) => (r + 90) % 360)}>
          ⟳ Rotate
        </button>
      </div>
      {hint && <p className="picture-hint">{hint}</p>}
      <div className="picture-viewport" ref={viewport}>
        {Array.from({ length: pages }, (_, page) => {
          const ratio = ratios[page] ?? ASSUMED_RATIO;
          const turned = rotation % 180 !== 0;
          const outerWidth = width * zoom;
          // Turned a quarter, the sheet's height spans the width available.
          const sheetWidth = turned ? outerWidth / ratio : outerWidth;
          const sheetHeight = sheetWidth * ratio;
          return (
            <div key={page} className="picture-page" style={{ width: outerWidth, height: turned ? sheetWidth : sheetHeight }}>
              <div className="picture-sheet" style={{ width: sheetWidth, height: sheetHeight, transform: `translate(-50%, -50%) rotate(${rotation}deg)` }}>
                {failed[page] ? (
                  <p className="muted picture-failed">This page could not be loaded.</p>
                ) : (
                  <img
                    src={pageUrl(receiptId, page)}
                    alt={`Page ${page + 1} of the receipt`}
                    draggable={false}
                    onLoad={(e) => {
                      const img = e.currentTarget;
                      if (img.naturalWidth > 0) setRatios((r) => ({ ...r, [page]: img.naturalHeight / img.naturalWidth }));
                    }}
                    onError={() => setFailed((f) => ({ ...f, [page]: true }))}
                  />
                )}
                {lines.map((line, i) =>
                  line.page === page ? (
                    // The same words are in the fields and the raw text: the boxes are for pointing, not a second reading order.
                    <div
                      key={i}
                      className={`ocr-line${highlight.includes(i) ? ' ocr-line-active' : ''}`}
                      data-line={i}
                      title={line.text}
                      style={{ left: `${line.box.x * 100}%`, top: `${line.box.y * 100}%`, width: `${line.box.width * 100}%`, height: `${line.box.height * 100}%` }}
                      onClick={() => onPickLine(i)}
                    />
                  ) : null,
                )}
              </div>
            </div>
          );
        })}
      </div>
    </div>
  );
}
