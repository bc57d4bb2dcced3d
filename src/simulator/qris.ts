// QRIS payloads: EMVCo merchant-presented QR (tag-length-value, two-digit ids and lengths) with the
// Indonesian national merchant info (ID.CO.QRIS.WWW) and the CRC16 of tag 63 that wallets verify.

/** CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF), as EMVCo specifies for tag 63. */
export function crc16Ccitt(text: string): number {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, 'utf8')) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit += 1) {
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    }
  }
  return crc;
}

/** One EMV data object: id, two-digit length, value. */
export function tlv(id: string, value: string): string {
  if (!/^\d{2}$/.test(id) || value.length === 0 || value.length > 99) {
    throw new RangeError(`EMV tag ${id} cannot carry a value of length ${value.length}`);
  }
  return id + String(value.length).padStart(2, '0') + value;
}

export interface QrisFields {
  /** National Merchant ID (NMID), e.g. ID1020012345678. */
  readonly nmid: string;
  /** The acquirer's merchant PAN (19 digits, 9360 + acquirer + merchant). */
  readonly merchantPan: string;
  readonly merchantId: string;
  readonly merchantName: string;
  readonly merchantCity: string;
  readonly postalCode: string;
  /** Amount in rupiah as EMV wants it: digits with an optional "." and decimals. */
  readonly amount: string;
  /** Reference label (tag 62, sub-tag 05), at most 25 characters. */
  readonly referenceLabel: string;
}

/** A dynamic (single-use, amount fixed) QRIS payload ending with its CRC. */
export function qrisPayload(fields: QrisFields): string {
  const body =
    tlv('00', '01') +
    tlv('01', '12') +
    tlv('26', tlv('00', 'ID.CO.PAYGATESIM.WWW') + tlv('01', fields.merchantPan) + tlv('02', fields.merchantId) + tlv('03', 'UMI')) +
    tlv('51', tlv('00', 'ID.CO.QRIS.WWW') + tlv('02', fields.nmid) + tlv('03', 'UMI')) +
    tlv('52', '5999') +
    tlv('53', '360') +
    tlv('54', fields.amount) +
    tlv('58', 'ID') +
    tlv('59', fields.merchantName.slice(0, 25)) +
    tlv('60', fields.merchantCity.slice(0, 15)) +
    tlv('61', fields.postalCode) +
    tlv('62', tlv('05', fields.referenceLabel.slice(0, 25)));
  const withCrcTag = `${body}6304`;
  return withCrcTag + crc16Ccitt(withCrcTag).toString(16).toUpperCase().padStart(4, '0');
}
