// Whether what a download host answered is a video: by what it says it is (Content-Type) and by what its
// first bytes are (the container's signature, as file(1) and browsers' sniffing read it). A gateway's
// HTML page or an object store's JSON error served with 200 must not be saved as out.mp4.

/** Bytes needed to recognise a container: an ISO BMFF box header (size, type) or the EBML magic. */
export const SIGNATURE_BYTES = 8;

/** The media type when it announces something other than a video (a page, a document, an error body). */
export function notVideoType(contentType: string | null): string | undefined {
  if (!contentType) return undefined; // said nothing: the bytes decide
  const type = contentType.split(';')[0].trim().toLowerCase();
  const other =
    /^(text|image|audio|font|model|multipart|message)\//.test(type) ||
    /\+(json|xml)$/.test(type) ||
    /^application\/(json|xml|javascript|ecmascript|x-www-form-urlencoded|pdf|zip|gzip|x-tar|x-sh)$/.test(type);
  return other ? type : undefined;
}

/** ISO BMFF (MP4, MOV, 3GP) box types a file can start with: ftyp first, or an older QuickTime layout. */
const ISO_FIRST_BOXES = new Set(['ftyp', 'styp', 'moov', 'mdat', 'free', 'skip', 'wide', 'pnot', 'sidx', 'moof']);

/** The container the first bytes announce, or undefined when they are no video's. */
export function videoContainer(head: Uint8Array): 'iso-bmff' | 'ebml' | undefined {
  if (head.length >= 8 && ISO_FIRST_BOXES.has(String.fromCharCode(...head.subarray(4, 8)))) return 'iso-bmff';
  // WebM and Matroska: the EBML header's ID.
  if (head.length >= 4 && head[0] === 0x1a && head[1] === 0x45 && head[2] === 0xdf && head[3] === 0xa3) return 'ebml';
  return undefined;
}
