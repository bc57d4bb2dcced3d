// The download link of a ready report: /v1/reports/<id>/download?expires=<unix seconds>&sig=<mac>,
// MACed with a key derived from the service key. Whoever holds the link may fetch the file until it
// expires, so it is short-lived (15 minutes by default); a wrong or expired link is a plain 404.
import crypto from 'node:crypto';

export const DOWNLOAD_URL_LIFETIME_MS = 15 * 60 * 1000;
const MAC_BYTES = 24;

export class DownloadSigner {
  constructor(
    private readonly key: Buffer,
    private readonly publicBaseUrl: string,
    private readonly lifetimeMs: number = DOWNLOAD_URL_LIFETIME_MS,
  ) {}

  /** A link valid until nowMs + lifetime (whole seconds), and that moment. */
  sign(reportId: string, nowMs: number): { url: string; expiresAtMs: number } {
    const expires = Math.floor((nowMs + this.lifetimeMs) / 1000);
    const query = new URLSearchParams({ expires: String(expires), sig: this.mac(reportId, expires) });
    return { url: `${this.publicBaseUrl}/v1/reports/${encodeURIComponent(reportId)}/download?${query}`, expiresAtMs: expires * 1000 };
  }

  /** Is this link one we issued for this report, and still within its lifetime? */
  verify(reportId: string, expiresText: string, sig: string, nowMs: number): boolean {
    if (!/^\d{1,12}$/.test(expiresText)) return false;
    const expires = Number(expiresText);
    if (expires * 1000 <= nowMs) return false;
    const expected = Buffer.from(this.mac(reportId, expires));
    const given = Buffer.from(sig);
    return given.length === expected.length && crypto.timingSafeEqual(given, expected);
  }

  private mac(reportId: string, expires: number): string {
    return crypto.createHmac('sha256', this.key).update(`${reportId}.${expires}`).digest().subarray(0, MAC_BYTES).toString('base64url');
  }
}
