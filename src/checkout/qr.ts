// Server-side QR rendering for the checkout page (UPI intents, QRIS payloads): an inline SVG of
// plain paths, so the page needs no client-side encoder and no image source beyond its own markup.
import QRCode from 'qrcode';
import { trustedSvg, type SafeHtml } from './html.js';

/** QR payloads are short (a UPI intent or an EMV string); anything longer is refused rather than encoded. */
const MAX_PAYLOAD_CHARS = 1024;

export async function qrSvg(payload: string): Promise<SafeHtml> {
  if (payload.length === 0 || payload.length > MAX_PAYLOAD_CHARS) {
    throw new RangeError(`QR payload must be 1 to ${MAX_PAYLOAD_CHARS} characters`);
  }
  // Level M survives a scuffed or glare-covered phone screen, which is how these are usually scanned.
  const svg = await QRCode.toString(payload, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return trustedSvg(svg);
}
