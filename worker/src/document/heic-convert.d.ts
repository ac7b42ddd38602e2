declare module 'heic-convert' {
  interface ConvertOptions {
    buffer: ArrayBufferLike | Uint8Array;
    format: 'JPEG' | 'PNG';
    quality?: number;
  }
  export default function convert(options: ConvertOptions): Promise<ArrayBuffer>;
}
