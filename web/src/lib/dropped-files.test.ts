import { describe, expect, it } from 'vitest';
import { chosenFolderFiles, filesOfEntries, isReceiptFile, type DroppedEntry } from './dropped-files.js';

const fileEntry = (name: string): DroppedEntry => ({ name, isFile: true, isDirectory: false, file: (ok) => ok(new File(['x'], name)) });
/** A folder whose reader gives its entries two at a time, then an empty batch, as browsers do in batches of 100. */
function folderEntry(name: string, children: DroppedEntry[]): DroppedEntry {
  return {
    name,
    isFile: false,
    isDirectory: true,
    createReader: () => {
      let at = 0;
      return {
        readEntries: (ok) => {
          ok(children.slice(at, at + 2));
          at += 2;
        },
      };
    },
  };
}

describe('a dropped folder', () => {
  it('gives the receipts in it and in its folders, and leaves other and hidden files out', async () => {
    const dropped = [
      folderEntry('receipts', [
        fileEntry('a.jpg'),
        fileEntry('notes.txt'),
        fileEntry('.DS_Store'),
        folderEntry('march', [fileEntry('b.PDF'), fileEntry('c.heic'), fileEntry('budget.xlsx')]),
        fileEntry('d.png'),
      ]),
    ];
    const { files, skipped } = await filesOfEntries(dropped);
    expect(files.map((f) => f.name)).toEqual(['a.jpg', 'b.PDF', 'c.heic', 'd.png']);
    expect(skipped).toBe(3);
  });

  it('sends a file dropped by itself whatever it is (the server says why it refuses one), beside a folder', async () => {
    const { files, skipped } = await filesOfEntries([fileEntry('scan.bmp'), folderEntry('f', [fileEntry('x.jpg')])]);
    expect(files.map((f) => f.name)).toEqual(['scan.bmp', 'x.jpg']);
    expect(skipped).toBe(0);
  });

  it('stops at the most files a folder gives', async () => {
    const many = folderEntry('photos', Array.from({ length: 9 }, (_, i) => fileEntry(`${i}.jpg`)));
    expect((await filesOfEntries([many], 4)).files.map((f) => f.name)).toEqual(['0.jpg', '1.jpg', '2.jpg', '3.jpg']);
  });
});

describe('a folder chosen with the picker', () => {
  it('gives its receipts only', () => {
    const { files, skipped } = chosenFolderFiles([new File(['x'], 'a.jpeg'), new File(['x'], 'b.txt'), new File(['x'], 'c.tif')]);
    expect(files.map((f) => f.name)).toEqual(['a.jpeg', 'c.tif']);
    expect(skipped).toBe(1);
  });

  it.each([
    ['receipt.JPG', true],
    ['scan.tiff', true],
    ['mail.webp', true],
    ['.hidden.jpg', false],
    ['notes.txt', false],
    ['archive.zip', false],
  ])('%s is a receipt file: %s', (name, expected) => {
    expect(isReceiptFile(name)).toBe(expected);
  });
});
