// What a test server's /metrics says of the payment list's cache (paygate_list_records_*): how many
// records it served from it (hit) or rendered anew (miss), and how much text it keeps. NaN when absent.

export interface ListRecordCounts {
  readonly hit: number;
  readonly miss: number;
  readonly kept: number;
}

export async function listRecordCounts(baseUrl: string): Promise<ListRecordCounts> {
  const text = await (await fetch(`${baseUrl}/metrics`)).text();
  const served = (result: string) => Number(new RegExp(`^paygate_list_records_total\\{list="payments",result="${result}"\\} (\\d+)$`, 'm').exec(text)?.[1]);
  return { hit: served('hit'), miss: served('miss'), kept: Number(new RegExp(`^paygate_list_records_kept_chars\\{list="payments"\\} (\\d+)$`, 'm').exec(text)?.[1]) };
}
